// The bash tool's session between calls (src/agents/shell): what a command leaves in its dump
// folder — where it ended, what it exported — is written by agent-run code, so everything in
// it is hostile. Each plant below is what a command could leave there (the command knows the
// folder: the script's own variable names it); the engine must take none of it — no link
// followed, nothing past the size bound, no folder outside the workspace or inside `.git`, no
// variable name the shell could not have exported — and keep the session as it was, saying so
// where the agent should know. Positive control: an honest dump is taken whole.

import { mkdtempSync } from "node:fs";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runShell } from "../../src/agents/shell/run-shell.js";
import { MAX_DUMP_BYTES } from "../../src/agents/shell/shell-state.js";
import { QUIET_COMMAND } from "../support/agents/fake-host.js";
import { cases } from "../support/adversarial/count.js";

// Made before the table below, which names paths in it.
const area = mkdtempSync(path.join(tmpdir(), "cfa-shell-adv-"));
const ws = path.join(area, "job");

beforeAll(async () => {
  await mkdir(path.join(ws, "sub"), { recursive: true });
  await mkdir(path.join(ws, ".git"), { recursive: true });
  await symlink("/etc", path.join(ws, "etc-link"));
  await writeFile(path.join(area, "outside-env"), "STOLEN=1\0");
});
afterAll(() => rm(area, { recursive: true, force: true }));

const done = QUIET_COMMAND;
const env = (vars: Record<string, string>) =>
  Object.entries(vars)
    .map(([k, v]) => `${k}=${v}\0`)
    .join("");
const START = env({ PATH: "/usr/bin:/bin", HOME: "/h" });

type Plant = (dump: string) => Promise<void>;
/** What an honest command leaves: it ended in `cwd` with `vars` exported on top of START. */
const honest =
  (cwd: string, vars: Record<string, string>): Plant =>
  async (dump) => {
    await writeFile(path.join(dump, "cwd"), cwd);
    await writeFile(path.join(dump, "env-start"), START);
    await writeFile(path.join(dump, "env-end"), START + env(vars));
  };
const thenPlant =
  (plant: Plant): Plant =>
  async (dump) => {
    await honest(path.join(ws, "sub"), { MINE: "1" })(dump);
    await plant(dump);
  };

const PLANTS: [string, Plant, string][] = [
  [
    "env-end a link to a file outside",
    thenPlant(async (d) => {
      await rm(path.join(d, "env-end"));
      await symlink(path.join(area, "outside-env"), path.join(d, "env-end"));
    }),
    "",
  ],
  [
    "cwd a link",
    thenPlant(async (d) => {
      await rm(path.join(d, "cwd"));
      await symlink("/etc/hostname", path.join(d, "cwd"));
    }),
    "",
  ],
  [
    "env-end past the size bound",
    thenPlant((d) => writeFile(path.join(d, "env-end"), `BIG=${"x".repeat(MAX_DUMP_BYTES)}\0`)),
    "",
  ],
  [
    "env-end a FIFO",
    thenPlant(async (d) => {
      await rm(path.join(d, "env-end"));
      execFileSync("mkfifo", [path.join(d, "env-end")]);
    }),
    "",
  ],
  [
    "env-end a folder",
    thenPlant(async (d) => {
      await rm(path.join(d, "env-end"));
      await mkdir(path.join(d, "env-end"));
    }),
    "",
  ],
  ["a folder outside the workspace", honest("/etc", { MINE: "1" }), "ended outside the workspace"],
  [
    "a folder of the workspace that links outside",
    honest(path.join(ws, "etc-link"), { MINE: "1" }),
    "ended outside the workspace",
  ],
  ["inside .git", honest(path.join(ws, ".git"), { MINE: "1" }), "ended outside the workspace"],
  ["a relative folder", honest("sub", { MINE: "1" }), "ended outside the workspace"],
  ["a folder with a NUL", honest(`${ws}/sub\0/etc`, { MINE: "1" }), "ended outside the workspace"],
];

describe(
  cases("a command's shell-session dump, read back as hostile", PLANTS.length + 2, "plants"),
  () => {
    let n = 0;
    const dirOf = () => path.join(area, ".shells", `i${++n}`);
    /** A session that is in `sub` with MINE=1, then one call whose command leaves `plant`. */
    const session = async (plant: Plant) => {
      const dir = dirOf();
      await mkdir(dir, { recursive: true });
      const run = (leave: Plant) =>
        runShell(
          { command: "anything" },
          { dir, root: ws, run: async ({ stateDir }) => (await leave(stateDir), done) },
        );
      const before = await run(honest(path.join(ws, "sub"), { MINE: "1" }));
      expect(before.cwd).toBe("sub");
      const after = await run(plant);
      let seen: Record<string, string> = {};
      await runShell(
        { command: "look" },
        {
          dir,
          root: ws,
          run: async ({ patchEnv }) => ((seen = patchEnv({ PATH: "/usr/bin:/bin" })), done),
        },
      );
      return { after, seen };
    };

    it.each(PLANTS)("%s: not taken, the session stays", async (_name, plant, note) => {
      const { after, seen } = await session(plant);
      expect(after.cwd).toBe("sub");
      expect(seen).toEqual({ PATH: "/usr/bin:/bin", MINE: "1" });
      if (note !== "") expect(after.notes.join("\n")).toContain(note);
      expect(JSON.stringify(seen)).not.toContain("STOLEN");
    });

    it("names no shell could export, and more variables than a session keeps: not taken", async () => {
      const dir = dirOf();
      await mkdir(dir, { recursive: true });
      const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`V${i}`, "x"]));
      const plant: Plant = async (d) => {
        await writeFile(path.join(d, "cwd"), ws);
        await writeFile(path.join(d, "env-start"), START);
        await writeFile(
          path.join(d, "env-end"),
          `${START}BAD-NAME=1\0BASH_FUNC_x%%=() { rm -rf /; }\0=novalue\0PWD=/etc\0OK_NAME=fine\0`,
        );
      };
      const first = await runShell(
        { command: "x" },
        { dir, root: ws, run: async ({ stateDir }) => (await plant(stateDir), done) },
      );
      expect(first.cwd).toBe(".");
      let seen: Record<string, string> = {};
      const probe = () =>
        runShell(
          { command: "look" },
          { dir, root: ws, run: async ({ patchEnv }) => ((seen = patchEnv({})), done) },
        );
      await probe();
      expect(seen).toEqual({ OK_NAME: "fine" });
      const flood = await runShell(
        { command: "x" },
        {
          dir,
          root: ws,
          run: async ({ stateDir }) => (await honest(ws, many)(stateDir), done),
        },
      );
      expect(flood.notes.join()).toMatch(/over what it keeps/);
      await probe();
      expect(seen).toEqual({});
    });

    it("positive control: an honest dump is taken — the folder, the variables set and unset", async () => {
      const dir = dirOf();
      await mkdir(dir, { recursive: true });
      const dump: Plant = async (d) => {
        await writeFile(path.join(d, "cwd"), path.join(ws, "sub"));
        await writeFile(path.join(d, "env-start"), START);
        await writeFile(path.join(d, "env-end"), env({ PATH: "/usr/bin:/bin", NEW: "a b" }));
      };
      const taken = await runShell(
        { command: "x" },
        { dir, root: ws, run: async ({ stateDir }) => (await dump(stateDir), done) },
      );
      expect(taken).toMatchObject({ cwd: "sub", notes: [] });
      let seen: Record<string, string> = {};
      await runShell(
        { command: "look" },
        {
          dir,
          root: ws,
          run: async ({ patchEnv }) => ((seen = patchEnv({ PATH: "/p", HOME: "/h" })), done),
        },
      );
      expect(seen).toEqual({ PATH: "/p", NEW: "a b" });
    });
  },
);

// The bash tool's session on the real sandbox (bubblewrap): each call one sandboxed `bash`,
// the folder it `cd`s into and the variables it exports carried to the next call, `restart`
// starting afresh — and what a command leaves for the next call read back as hostile input.

import { existsSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "../../../../src/adapters/sandbox/create-sandbox.js";
import { runCommand } from "../../../../src/agents/commands/run-command.js";
import { runShell, type ShellCall } from "../../../../src/agents/shell/run-shell.js";
import type { Sandbox } from "../../../../src/ports/sandbox.js";
import { bwrapSuite, fixtureRoot, SYSTEM_PATH } from "../../../support/sandbox/sandbox-fixtures.js";

const { bwrapPath, bit, skipped } = bwrapSuite();

let area: string;
let ws: string;
let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  if (bwrapPath === null) return;
  area = await fixtureRoot("cfa-shell-it-");
  ws = path.join(area, "job");
  dir = path.join(area, ".shells", "worker@dispatch_t1");
  await mkdir(path.join(ws, "sub"), { recursive: true });
  await mkdir(dir, { recursive: true });
  // As the engine makes it: the job area hidden, only the workspace and the dump bound.
  sandbox = await createSandbox("require", { hidePaths: [area], home: null });
});
afterAll(async () => {
  if (area) await rm(area, { recursive: true, force: true });
});

const call = (shell: ShellCall, timeoutMs = 20_000) =>
  runShell(shell, {
    dir,
    root: ws,
    run: ({ argv, stateDir, patchEnv }) =>
      runCommand({
        sandbox,
        argv,
        workspaceRoot: ws,
        role: { allowedCommands: [] },
        env: { PATH: SYSTEM_PATH },
        timeoutMs,
        maxOutputBytes: 65536,
        stateDir,
        patchEnv,
        allowlist: false,
      }),
  });

describe(`the bash tool's session, in the sandbox${skipped}`, () => {
  bit(
    "carries the folder and the exported variables to the next call; a shell line runs as typed",
    async () => {
      const first = await call({
        command: "cd sub && export GREETING='hello there' && printf 'a\\nb\\n' | wc -l",
      });
      expect(first.result?.stdout.trim()).toBe("2");
      expect(first.cwd).toBe("sub");
      const second = await call({ command: 'pwd; echo "$GREETING"; unset GREETING' });
      expect(second.result?.stdout).toBe("./sub\nhello there\n");
      const third = await call({ command: 'echo "[${GREETING-unset}]"' });
      expect(third.result?.stdout).toBe("[unset]\n");
    },
  );

  bit("restart gives a fresh session: the workspace root, no variables", async () => {
    await call({ command: "cd sub; export KEPT=1" });
    const restarted = await call({ restart: true, command: 'pwd; echo "[${KEPT-}]"' });
    expect(restarted.result?.stdout).toBe(".\n[]\n");
    expect((await call({ restart: true })).result).toBeNull();
  });

  bit(
    "keeps its exit code and the session across `exit`; a killed command leaves the session as it was",
    async () => {
      await call({ restart: true, command: "cd sub" });
      const exited = await call({ command: "export AFTER=1; exit 3" });
      expect(exited.result?.exitCode).toBe(3);
      const killed = await call({ command: "cd ..; sleep 5" }, 500);
      expect(killed.result?.timedOut).toBe(true);
      expect(killed.notes.join()).toMatch(/did not finish/);
      expect(killed.cwd).toBe("sub");
      expect((await call({ command: 'pwd; echo "$AFTER"' })).result?.stdout).toBe("./sub\n1\n");
    },
  );

  bit("never leaves the session outside the workspace", async () => {
    await call({ restart: true, command: "cd sub" });
    const outside = await call({ command: "cd /usr" });
    expect(outside.notes.join()).toMatch(/ended outside the workspace \(\/usr\)/);
    expect((await call({ command: "pwd" })).result?.stdout).toBe("./sub\n");
  });

  bit(
    "reads what a command planted in its dump as hostile: a link is not followed, the session stays",
    async () => {
      await call({ restart: true, command: "cd sub" });
      const planted = await call({
        command:
          'cd ..; trap \'rm -f "$__cfa_dump"/*; ln -s /etc/passwd "$__cfa_dump/cwd"; ln -s /etc/passwd "$__cfa_dump/env-start"; ln -s /etc/passwd "$__cfa_dump/env-end"\' EXIT',
      });
      expect(planted.result?.exitCode).toBe(0);
      expect(planted.cwd).toBe("sub");
      expect((await call({ command: "pwd" })).result?.stdout).toBe("./sub\n");
    },
  );

  bit(
    "keeps the session out of the workspace, and the engine's own copy out of the command's reach",
    async () => {
      const looked = await call({
        restart: true,
        command: 'ls -a "$__cfa_dump/.."; cat "$__cfa_dump/../session.json"',
      });
      expect(looked.result?.stdout.split("\n").filter(Boolean)).toEqual([".", "..", "dump"]);
      expect(looked.result?.exitCode).not.toBe(0);
      expect(await readdir(ws)).toEqual(["sub"]);
      expect(existsSync(path.join(dir, "session.json"))).toBe(true);
    },
  );

  it("carries the session without the sandbox too (sandbox: off, where the engine holds no secret)", async () => {
    const off = await createSandbox("off", { holdsSecrets: () => false });
    const offArea = await fixtureRoot("cfa-shell-off-");
    const offWs = path.join(offArea, "job");
    const offDir = path.join(offArea, ".shells", "worker@x");
    await mkdir(path.join(offWs, "sub"), { recursive: true });
    await mkdir(offDir, { recursive: true });
    const run = (shell: ShellCall) =>
      runShell(shell, {
        dir: offDir,
        root: offWs,
        run: ({ argv, stateDir, patchEnv }) =>
          runCommand({
            sandbox: off,
            argv,
            workspaceRoot: offWs,
            role: { allowedCommands: [] },
            env: { PATH: SYSTEM_PATH },
            timeoutMs: 20_000,
            maxOutputBytes: 65536,
            stateDir,
            patchEnv,
            allowlist: false,
          }),
      });
    try {
      await run({ command: "cd sub && export KEPT=yes" });
      expect((await run({ command: 'pwd; echo "$KEPT"' })).result?.stdout).toBe("./sub\nyes\n");
    } finally {
      await rm(offArea, { recursive: true, force: true });
    }
  });
});

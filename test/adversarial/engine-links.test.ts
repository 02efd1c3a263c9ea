// Adversarial class "engine reads through links": the bot must never post or commit a host file
// (its own environment) an agent linked into place. The engine reads and writes its records
// (state.json, bus.jsonl, transcripts, outcome.json, the proxy's memory) and the phase artifacts in
// a worktree an agent's commands can change at will. Each case plants one thing at one of those
// paths — a link to /proc/self/environ or to a file outside, a hard link, a FIFO, a folder, a
// linked parent folder, changed, created or removed content — and then the engine reads it, appends
// to it, writes it, checks the tree after the command, and commits. Nothing outside may be read
// into the engine or changed, no secret may reach a commit, a record someone else changed is
// refused, and the check puts everything back.

import { execFileSync } from "node:child_process";
import {
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containWorkspace } from "../../src/engine/tree/contain-workspace.js";
import { appendText, readText, removeFile, writeText } from "../../src/engine/tree/files.js";
import type { JobRepo } from "../../src/engine/tree/job-repo.js";
import { RecordTamperedError } from "../../src/engine/tree/record-tampered-error.js";
import type { Workspace } from "../../src/ports/workspaces.js";
import { makeGitFixture, type GitFixture } from "../support/git/git-fixture.js";
import { jobWorkspace } from "../support/git/job-workspace.js";
import { git } from "../support/git/temp-repo.js";
import { cases } from "../support/adversarial/count.js";
import { snapshot } from "../support/adversarial/outside-snapshot.js";
import { plantSecrets } from "../support/adversarial/plant-secrets.js";

const PLANTED = plantSecrets("EngineLinks");
const OUTSIDE_SECRET = "OUTSIDE-SECRET-do-not-read";
const SECRETS = [...Object.values(PLANTED), OUTSIDE_SECRET];

const DIR = ".cfa/jobs/1";
/** Where the engine keeps what; `own`: one of this job's records (a change fails the turn). */
const PATHS = [
  { file: `${DIR}/state.json`, kind: "record", own: true },
  { file: `${DIR}/bus.jsonl`, kind: "record", own: true },
  { file: `${DIR}/instances/intent-lead@state~intent~1.jsonl`, kind: "record", own: true },
  { file: ".cfa/outcome.json", kind: "record", own: true },
  { file: ".cfa/proxy/ana.md", kind: "record", own: true },
  { file: ".cfa/jobs/7/bus.jsonl", kind: "record", own: false },
  { file: `${DIR}/INTENT.md`, kind: "artifact", own: false },
  { file: `${DIR}/PLAN.md`, kind: "artifact", own: false },
  { file: `${DIR}/WORK_SUMMARY.md`, kind: "artifact", own: false },
] as const;
type Target = (typeof PATHS)[number];

let fx: GitFixture;
let job: Workspace;
let repo: JobRepo;
let outside: string;
let outsideBefore: Map<string, string>;
const seen: string[] = [];
/** What the engine holds as each file's content. */
const engineText = new Map<string, string>();

const at = (file: string) => path.join(job.root, file);
function write(file: string, text: string): void {
  mkdirSync(path.dirname(at(file)), { recursive: true });
  writeFileSync(at(file), text);
}

beforeAll(async () => {
  fx = makeGitFixture();
  outside = path.join(fx.base, "outside");
  mkdirSync(path.join(outside, "decoy/instances"), { recursive: true });
  writeFileSync(path.join(outside, "secret.txt"), `${OUTSIDE_SECRET}\n`);
  for (const target of PATHS) {
    const decoy = path.join(outside, "decoy", path.basename(target.file));
    writeFileSync(decoy, `${OUTSIDE_SECRET} decoy\n`);
  }
  writeFileSync(
    path.join(outside, "decoy/instances/intent-lead@state~intent~1.jsonl"),
    `${OUTSIDE_SECRET}\n`,
  );
  ({ job, repo } = await jobWorkspace(fx));
  // The job as the engine left it: its records written through its own helpers, committed.
  for (const target of PATHS) {
    const text = `${target.file}: the engine's ${target.kind}\n`;
    if (target.kind === "artifact") write(target.file, text);
    else await writeText(job.root, target.file, text);
    engineText.set(target.file, text);
  }
  await repo.commit("the job so far");
  await repo.resetToHead();
  // The outcome record is never committed: the finish tool writes it during a turn.
  await writeText(job.root, ".cfa/outcome.json", engineText.get(".cfa/outcome.json")!);
  outsideBefore = snapshot(outside);
});
afterAll(() => fx.cleanup());

interface Plant {
  name: string;
  /** Does it to `file` what an agent's command could. */
  plant(target: Target): void;
  /** It leads outside (or to something not a file): every read and append is refused. */
  refused: boolean;
  /** For records: the content changed (tamper), so even a read is refused. */
  tampers: boolean;
}

/** The file removed and `put` in its place (given the file's path): refused, a tamper. */
const replacedBy = (name: string, put: (file: string) => void): Plant => ({
  name,
  plant: (t) => {
    rmSync(at(t.file), { force: true });
    put(at(t.file));
  },
  refused: true,
  tampers: true,
});

const PLANTS: Plant[] = [
  replacedBy("a link to /proc/self/environ (ln -sfn)", (file) =>
    symlinkSync("/proc/self/environ", file),
  ),
  replacedBy("a link to a file outside", (file) =>
    symlinkSync(path.join(outside, "secret.txt"), file),
  ),
  replacedBy("a relative link to a record inside", (file) =>
    symlinkSync(path.relative(path.dirname(file), at(`${DIR}/state.json`)), file),
  ),
  replacedBy("a hard link to a file outside", (file) =>
    linkSync(path.join(outside, "secret.txt"), file),
  ),
  {
    name: "a hard link inside (ln record copy)",
    plant: (t) => linkSync(at(t.file), at(`${t.file}.hardlink`)),
    refused: true,
    tampers: true,
  },
  replacedBy("a FIFO", (file) => execFileSync("mkfifo", [file])),
  replacedBy("a folder", (file) => {
    mkdirSync(file);
    writeFileSync(path.join(file, "x"), "x\n");
  }),
  {
    name: "its folder swapped for a link to a decoy folder outside",
    plant: (t) => {
      const folder = path.dirname(at(t.file));
      renameSync(folder, `${folder}.moved`);
      symlinkSync(path.join(outside, "decoy"), folder);
    },
    refused: true,
    tampers: true,
  },
  {
    name: "its content changed",
    plant: (t) => writeFileSync(at(t.file), `forged ${t.file}\n`),
    refused: false,
    tampers: true,
  },
  {
    name: "removed",
    plant: (t) => rmSync(at(t.file), { force: true }),
    refused: false,
    tampers: true,
  },
];

const CASES = PATHS.flatMap((target) =>
  PLANTS.map((plant) => ({ title: `${target.file}: ${plant.name}`, target, plant })),
);

function swallow(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

describe(cases("engine reads through links", CASES.length), () => {
  it.each(CASES)("$title", async ({ target, plant }) => {
    plant.plant(target);
    const record = target.kind === "record";

    // Read: a link, hard link, FIFO or folder is refused; a changed record is refused; a
    // changed artifact is the lead's text.
    let read: string | null | undefined;
    let readError: unknown;
    try {
      read = await readText(job.root, target.file);
    } catch (error) {
      readError = error;
    }
    seen.push(read ?? "", swallow(readError));
    if (plant.refused || (record && plant.tampers)) {
      expect(readError, "read").toBeDefined();
      if (record && !plant.refused) expect(readError).toBeInstanceOf(RecordTamperedError);
    } else {
      expect(readError, "read").toBeUndefined();
    }

    // Append (records): never through a link, never onto someone else's bytes.
    if (record) {
      const appended = await appendText(job.root, target.file, "engine line\n").then(
        () => null,
        (error: unknown) => error,
      );
      seen.push(swallow(appended));
      expect(appended, "append").not.toBeNull();
    }

    // The after-command check puts it back (and a tampered own record fails the turn).
    const contained = await containWorkspace(repo, {
      ...(job.gitDir ? { gitDir: job.gitDir } : {}),
      // The intent lead's protect list: its artifact is its own to write, as a regular file.
      protect: [".cfa/", `!${DIR}/INTENT.md`],
      ownRecord: (file) =>
        file.startsWith(`${DIR}/`) ||
        file.startsWith(".cfa/proxy/") ||
        file === ".cfa/outcome.json",
    });
    seen.push(...contained.notes);
    const ownArtifact = target.file === `${DIR}/INTENT.md`;
    if (target.own) expect(contained.tampered, "turn fails").toContain(target.file);
    if (!ownArtifact || plant.refused) {
      expect(contained.notes.join("\n"), "told").toMatch(/cfa: /u);
    }
    // Leftovers of the plant beside the path (a hard link's other name, a moved folder).
    rmSync(at(`${target.file}.hardlink`), { force: true });
    rmSync(`${path.dirname(at(target.file))}.moved`, { recursive: true, force: true });

    // Back to what the engine (or the lead, for its own artifact) last had.
    if (!(ownArtifact && !plant.refused)) {
      expect(await readText(job.root, target.file), "restored").toBe(engineText.get(target.file));
    } else if (plant.name === "removed") {
      write(target.file, engineText.get(target.file)!);
    } else {
      write(target.file, engineText.get(target.file)!);
    }
    expect(snapshot(outside), "nothing outside changed").toEqual(outsideBefore);
  });

  it("the engine never read a secret or anything outside, and no commit holds one", async () => {
    await repo.commit("after every case");
    for (const text of seen) for (const secret of SECRETS) expect(text).not.toContain(secret);
    const history = git(fx.repo, "log", "-p", "--all", "--format=%B");
    for (const secret of SECRETS) expect(history).not.toContain(secret);
    // And no link was ever committed under .cfa/.
    const tree = git(fx.repo, "ls-tree", "-r", "cfa/1", "--", ".cfa");
    expect(tree).not.toMatch(/^120000 /mu);
  });

  it("a committed link is never read as its target's text (the gate shows the committed blob)", async () => {
    const side = path.join(fx.base, "side");
    git(fx.repo, "worktree", "add", "--quiet", "-b", "side", side, "cfa/1");
    rmSync(path.join(side, DIR, "PLAN.md"));
    symlinkSync("/proc/self/environ", path.join(side, DIR, "PLAN.md"));
    git(
      side,
      "-c",
      "user.name=x",
      "-c",
      "user.email=y",
      "commit",
      "--quiet",
      "--no-verify",
      "-am",
      "link",
    );
    const head = git(fx.repo, "rev-parse", "side");
    expect(await repo.fileAt(head, `${DIR}/PLAN.md`)).toBeNull();
    expect((await repo.fileAt(head, `${DIR}/INTENT.md`))?.toString()).toBe(
      engineText.get(`${DIR}/INTENT.md`),
    );
  });

  it("removeFile never follows a link: it removes the link", async () => {
    symlinkSync(path.join(outside, "secret.txt"), at(".cfa/outcome.json.link"));
    await removeFile(job.root, ".cfa/outcome.json.link");
    expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe(`${OUTSIDE_SECRET}\n`);
  });
});

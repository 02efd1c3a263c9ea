// A full disk, an agent wedging its job: an agent's command fills the runner's disk (bytes, or the
// inode table: both give ENOSPC) and every later wake threw until someone freed space. Here the
// job's whole area — the repository, its worktrees, the forge's data — lives on a small tmpfs this
// test mounts, nearly filled first by "the rest of the runner" (a ballast file, or a ballast of
// empty files for the inode table); the project lead's command tips it over. The job must pause,
// not fail: live, no retry spent, the status comment saying the runner's disk is full and what to
// do, the sweep told to wake it; once the ballast goes (space freed), the next wake redoes the turn
// and carries on to the plan's gate. The command also prints git's very words for a full disk and
// exits 1, so an agent's output cannot pass for the machine's state once there is room. A turn that
// fills the disk every time it is redone fails after DISK_PAUSES_BEFORE_FAILURE pauses, so a
// hostile command cannot pause a job forever. Nor can a file name: git prints names raw in its
// errors, so a folder named with newlines and those words made a failed `git add` read as a full
// disk (without the words, it threw on every wake); such names are left out of the commit. Positive
// controls: on the same full disks plain git fails, which is what every wake met before; plain git
// prints the named words at a line's end.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { containWorkspace } from "../../src/engine/tree/contain-workspace.js";
import { GitCommandError } from "../../src/git/git-client.js";
import { isDiskFull } from "../../src/ports/disk-full.js";
import { makeGitFixture } from "../support/git/git-fixture.js";
import { jobWorkspace } from "../support/git/job-workspace.js";
import { DISK_PAUSES_BEFORE_FAILURE } from "../../src/engine/flow/disk-pause.js";
import { jobNeedsWake } from "../../src/worker/job-needs-wake.js";
import type { EngineState } from "../../src/records/engine-state.js";
import type { State } from "../../src/protocol/fsm.js";
import { createLocalJob, type LocalJob } from "../support/engine/local-job.js";
import { openJob } from "../support/engine/person.js";
import {
  commentsOfKind,
  fileOnBranch,
  foldedBus,
  state,
  transcript,
  userTexts,
} from "../support/engine/inspect.js";
import { ART, INTENT_STEPS, gate, writeArtifact } from "../support/engine/recordings.js";
import { call, recording, tools } from "../support/engine/script.js";
import { cases } from "../support/adversarial/count.js";

const LEAD = "project-lead@state:plan:1";
// git's strerror at a line's end: what ports/disk-full.ts reads from a git command's failure.
const SPOOF = "fatal: unable to write loose object file: No space left on device";

/** Why a tmpfs cannot be mounted here (null: it can): mounting needs CAP_SYS_ADMIN. */
const cannotMount = ((): string | null => {
  const at = mkdtempSync(join(tmpdir(), "cfa-tmpfs-probe-"));
  try {
    const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", at]);
    if (mounted.status !== 0) {
      return `mounting a tmpfs failed (it needs root with CAP_SYS_ADMIN): ${mounted.stderr.toString().trim() || (mounted.error?.message ?? "")}`;
    }
    spawnSync("umount", [at]);
    return null;
  } finally {
    rmSync(at, { recursive: true, force: true });
  }
})();

const mounts: string[] = [];
const jobs: LocalJob[] = [];

function mountTmpfs(options: string): string {
  const at = mkdtempSync(join(tmpdir(), "cfa-full-disk-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", at]);
  mounts.push(at);
  return at;
}

afterEach(async () => {
  for (const job of jobs.splice(0)) await job.cleanup().catch(() => {});
  for (const at of mounts.splice(0)) {
    spawnSync("umount", [at]);
    rmSync(at, { recursive: true, force: true });
  }
});

function free(at: string): { bytes: number; inodes: number } {
  const fs = statfsSync(at);
  return { bytes: fs.bavail * fs.bsize, inodes: fs.ffree };
}

interface Fill {
  title: string;
  /** tmpfs options: a size, an inode table. */
  mount: string;
  /** Fills the tmpfs but for what the engine needs to reach the lead's command. */
  ballast(at: string): void;
  /** The command that tips it over (a shell line). */
  command: string;
}

const FILLS: Fill[] = [
  {
    title: "bytes: 4 MB of build output with 2 MiB left",
    mount: "size=24m,nr_inodes=20000",
    ballast: (at) => writeFileSync(join(at, "ballast"), Buffer.alloc(free(at).bytes - 2 * 2 ** 20)),
    command: "head -c 4000000 /dev/zero > build.log",
  },
  {
    title: "the inode table: 1,500 files with 300 inodes left",
    mount: "size=64m,nr_inodes=4000",
    ballast: (at) => {
      mkdirSync(join(at, "ballast"));
      const count = free(at).inodes - 300;
      for (let i = 0; i < count; i += 1) writeFileSync(join(at, "ballast", String(i)), "");
    },
    command: "mkdir -p out && for i in $(seq 1500); do : > out/$i; done",
  },
];

/** A job whose INTENT passes through the proxy and whose plan lead runs `command` first. */
async function fullDiskJob(at: string, command: string): Promise<LocalJob> {
  const job = await createLocalJob({
    root: join(at, "job"),
    config: "escalation:\n  INTENT: never\ncommands:\n  project-lead: [sh, ls]\n",
    recording: recording({
      "intent-lead@state:intent:1": INTENT_STEPS(),
      "proxy@escalation:q1": [tools(call("answer", { text: "approved" }))],
      [LEAD]: [
        tools(
          call("run_command", { argv: ["sh", "-c", `${command}; echo '${SPOOF}' >&2; exit 1`] }),
        ),
        writeArtifact("PLAN.md", "# Plan\n\nGreet.\n"),
        gate("PLAN.md"),
      ],
    }),
  });
  jobs.push(job);
  await openJob(job);
  return job;
}

function needsWake(job: LocalJob): string[] {
  const s = state(job);
  return jobNeedsWake({
    state: s.state as State,
    engine: s.engine as unknown as EngineState,
    issue: { state: "open", labels: ["cfa"] },
    label: "cfa",
    latestComment: 0,
    latestReview: 0,
  });
}

const mountable = cannotMount === null ? "" : ` — skipped: ${cannotMount}`;

describe.skipIf(cannotMount !== null)(
  cases(`a full disk pauses the job and the next wake carries on${mountable}`, FILLS.length),
  () => {
    it.each(FILLS)("$title", async (fill) => {
      const at = mountTmpfs(fill.mount);
      const job = await fullDiskJob(at, fill.command);
      fill.ballast(at);

      const paused = await wake(1, job.deps);
      // Paused, not failed: live in PLAN, no retry spent, no turn applied.
      expect(paused.state).toBe("PLAN");
      expect(paused.waitingOn).toMatch(
        /^free disk space on the runner — the job is paused since /u,
      );
      const during = state(job);
      expect(during.state).toBe("PLAN");
      expect(during.failures).toBe(0);
      expect(during.engine["diskFull"]).toMatchObject({
        pauses: 1,
        last: expect.stringMatching(/ENOSPC|No space left on device/u),
      });
      // The status comment says so, and what to do; the sweep wakes the job again.
      const [status] = await commentsOfKind(job, "status");
      expect(status!.body).toContain("the runner's disk is full");
      expect(status!.body).toContain(
        "Free space (a self-hosted runner's work folder, or a larger runner)",
      );
      expect(needsWake(job)).toContainEqual(expect.stringMatching(/the runner's disk was full$/u));
      // The turn was dropped: nothing of it committed.
      expect(fileOnBranch(job, `${ART}/PLAN.md`)).toBeNull();

      // Space freed: the rest of the runner is gone. The next wake redoes the turn.
      rmSync(join(at, "ballast"), { recursive: true });
      const carried = await wake(1, await job.reopen());
      expect(carried.state).toBe("PLAN");
      expect(carried.waitingOn).toContain("review PLAN.md");
      const after = state(job);
      expect(after.failures).toBe(0);
      expect(after.engine["diskFull"]).toBeUndefined();
      expect(needsWake(job)).toEqual([]);
      expect(fileOnBranch(job, `${ART}/PLAN.md`)).toBe("# Plan\n\nGreet.");
      // The command's own words for a full disk reached the lead as its output, nothing more.
      const told = userTexts(transcript(job, LEAD)).join("\n");
      expect(told).toContain(SPOOF);
    });
  },
);

describe.skipIf(cannotMount !== null)(
  `a turn that fills the disk each time it is redone fails after ${DISK_PAUSES_BEFORE_FAILURE} pauses (1 case)${mountable}`,
  () => {
    it("the third pause is the turn's failure: one retry spent, the lead told why, the job live", async () => {
      const at = mountTmpfs("size=24m,nr_inodes=20000");
      // Fills whatever is left, every time it runs.
      const job = await fullDiskJob(at, "cat /dev/zero > build.log");
      writeFileSync(join(at, "ballast"), Buffer.alloc(free(at).bytes - 2 * 2 ** 20));
      for (let pause = 1; pause < DISK_PAUSES_BEFORE_FAILURE; pause += 1) {
        const summary = await wake(1, pause === 1 ? job.deps : await job.reopen());
        expect(summary.waitingOn).toMatch(/^free disk space on the runner/u);
        expect(state(job).engine["diskFull"]).toMatchObject({ pauses: pause });
        expect(state(job).failures).toBe(0);
      }
      const failed = await wake(1, await job.reopen());
      const after = state(job);
      expect(after.failures).toBe(1);
      expect(after.state).toBe("PLAN");
      expect(failed.notes.join("\n")).toContain(
        `the runner's disk filled up during the same round ${DISK_PAUSES_BEFORE_FAILURE} times in a row`,
      );
      // The lead hears why in its mailbox; its retried turn (the same script: the same
      // command) filled the disk again, a new pause counted from one.
      const mail = foldedBus(job).folded.soup.mailbox({
        agent: "project-lead",
        thread: "state:plan:1",
      });
      expect(JSON.stringify(mail)).toContain("Write less into the workspace");
      expect(after.engine["diskFull"]).toMatchObject({ pauses: 1 });
    });
  },
);

describe.skipIf(cannotMount !== null)(
  cases(`positive controls: plain git on the same full disks${mountable}`, FILLS.length),
  () => {
    it.each(FILLS)("$title: git add exits non-zero with git's words for a full disk", (fill) => {
      const at = mountTmpfs(fill.mount);
      const repo = join(at, "repo");
      mkdirSync(repo);
      execFileSync("git", ["init", "--quiet", repo]);
      fill.ballast(at);
      const command = spawnSync("sh", ["-c", fill.command], { cwd: repo });
      expect(command.status).not.toBe(0);
      const added = spawnSync("git", ["add", "--all"], { cwd: repo, encoding: "utf8" });
      expect(added.status).not.toBe(0);
      expect(added.stderr).toMatch(/: No space left on device$/mu);
    });
  },
);

// Names git prints raw in its error lines: a folder named with newlines and a full disk's
// words, holding a file git refuses (a backslash name, refused under core.protectNTFS), made
// `git add` print a line that passed for git's own fatal error. No mount needed.
const NAMES: { title: string; folder: string }[] = [
  { title: "git's words for a full disk", folder: `x\n${SPOOF}\n` },
  { title: "a quota's words", folder: "x\nfatal: y: Disk quota exceeded\n" },
  { title: "newlines alone (the add threw on every wake)", folder: "x\ny\n" },
];

describe(cases("file names that print a full disk's words in git's errors", NAMES.length), () => {
  it.each(NAMES)("$title: left out of the commit, which goes on", async ({ folder }) => {
    const fx = makeGitFixture();
    try {
      const { job, repo } = await jobWorkspace(fx);
      mkdirSync(join(job.root, folder), { recursive: true });
      writeFileSync(join(job.root, folder, "a\\.git\\b"), "payload\n");
      writeFileSync(join(job.root, "kept.txt"), "kept\n");
      await containWorkspace(repo, { protect: [".cfa/"], ownRecord: () => false });
      await repo.commit("turn");
      expect(fx.git(job.root, "ls-tree", "-r", "--name-only", "HEAD").split("\n")).toEqual([
        "README.md",
        "kept.txt",
        "shared.txt",
      ]);
    } finally {
      fx.cleanup();
    }
  });

  it("positive control: plain git add prints the words at a line's end, read as a full disk", () => {
    const fx = makeGitFixture();
    try {
      mkdirSync(join(fx.repo, NAMES[0]!.folder));
      writeFileSync(join(fx.repo, NAMES[0]!.folder, "a\\.git\\b"), "payload\n");
      const args = ["add", "--all", "--ignore-errors", "--", "."];
      const added = spawnSync("git", args, { cwd: fx.repo, encoding: "utf8" });
      expect(added.status).not.toBe(0);
      expect(added.stderr.split("\n")).toContain(SPOOF);
      expect(
        isDiskFull(new GitCommandError(`cfa/git: git add failed: ${added.stderr}`, args, 1)),
      ).toBe(true);
    } finally {
      fx.cleanup();
    }
  });
});

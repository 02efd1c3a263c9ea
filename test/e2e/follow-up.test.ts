// Follow-ups (docs/protocol.md#jobs-and-states), locally: a review requesting changes after
// DONE, or `/cfa <request>`, starts a new job on the same branch and pull request — round k
// of the issue, its records in `.cfa/jobs/1.k/` — from INTENT, its intent lead given the
// request; the earlier job's records never change; a commit the person pushed after DONE is
// what the follow-up starts from; `followups.intent: auto` approves a follow-up's INTENT.md;
// a second request while a follow-up runs reaches its lead as an intervention, said once.
// Real git, the local forge, the scripted model.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { readHiddenBlock } from "../../src/comments/hidden-block.js";
import { call, expecting, recording, say, tools } from "../support/engine/script.js";
import { ART, finish, happyRecording, pass } from "../support/engine/recordings.js";
import { approveGates, openJob, requestChanges, say as comment } from "../support/engine/person.js";
import {
  asConversationModel,
  createLocalJob,
  git,
  type LocalJob,
} from "../support/engine/local-job.js";

const round = (k: number) => `.cfa/jobs/1.${k}`;
const write = (k: number, name: string, content: string) =>
  tools(call("write_file", { path: `${round(k)}/${name}`, content }));
const ask = (k: number, name: string) =>
  tools(
    call("ask_question", {
      kind: "gate",
      text: `${name} is ready`,
      artifact: `${round(k)}/${name}`,
    }),
  );

/**
 * Round 2: INTENT (approved by `followups.intent: auto`), PLAN, one task `shout` on the
 * person's commit. Round 3: INTENT (auto), PLAN asked, then revised on the second request.
 */
const followUps = () => ({
  "intent-lead@state:intent:2": [
    expecting(write(2, "INTENT.md", "# Intent\n\nShout hello.\n"), "Upper case"),
    ask(2, "INTENT.md"),
    expecting(finish("APPROVED_INTENT"), "followups.intent: auto"),
  ],
  "project-lead@state:plan:2": [
    write(2, "PLAN.md", "# Plan\n\nshout\n"),
    ask(2, "PLAN.md"),
    finish("APPROVED_PLAN"),
  ],
  "project-lead@state:execute:2": [
    // `hello` was round 1's task: its id is refused, and the lead chooses another.
    expecting(
      tools(call("dispatch", { id: "hello", brief: "Shout", files: [] })),
      "You lead the EXECUTE phase of job #1 (entry 2)",
    ),
    expecting(
      tools(call("dispatch", { id: "shout", brief: "Make hello.txt say HELLO", files: [] })),
      "used by an earlier round of job #1",
    ),
    say("Dispatched."),
    tools(call("close", { task: "shout" })),
    write(2, "WORK_SUMMARY.md", "# Summary\n\nhello.txt shouts.\n"),
    ask(2, "WORK_SUMMARY.md"),
    finish("APPROVED_WORK"),
  ],
  "worker@dispatch:shout": [
    // The person's own commit after DONE is in the task's workspace: it started from there.
    expecting(tools(call("read_file", { path: "NOTES.md" })), "Your task"),
    expecting(tools(call("write_file", { path: "hello.txt", content: "HELLO\n" })), "by hand"),
    tools(call("reply", { text: "hello.txt shouts" })),
    say("done"),
  ],
  "verifier@verify:shout-1": pass(),
  "intent-lead@state:intent:3": [
    expecting(write(3, "INTENT.md", "# Intent\n\nWhisper.\n"), "whisper it"),
    ask(3, "INTENT.md"),
    finish("APPROVED_INTENT"),
  ],
  "project-lead@state:plan:3": [
    write(3, "PLAN.md", "# Plan\n\nwhisper\n"),
    ask(3, "PLAN.md"),
    expecting(write(3, "PLAN.md", "# Plan\n\nwhisper, in French\n"), "in French"),
    ask(3, "PLAN.md"),
  ],
});

describe("follow-ups of a local job", () => {
  let job: LocalJob;
  let doneCommit: string;
  beforeAll(async () => {
    const base = happyRecording() as { instances: Record<string, unknown[]> };
    job = await createLocalJob({
      recording: recording({ ...base.instances, ...followUps() } as never),
      config: "followups:\n  intent: auto\n",
    });
    await openJob(job);
    expect((await approveGates(job, 3, wake)).state).toBe("DONE");
    doneCommit = git(job.repoDir, "rev-parse", "cfa/1");
  });
  afterAll(() => job.cleanup());

  it("round 2: a review after DONE, on the person's own push, its intent approved by the config", async () => {
    // The person adds a file by hand on cfa/1 after DONE, in the worktree that holds it.
    const pushed = personCommit(job, "NOTES.md", "by hand\n");
    await requestChanges(job, "Shout it, please.", [
      { path: "hello.txt", line: 1, body: "Upper case", diffHunk: "@@ -0,0 +1 @@\n+hello" },
    ]);
    // INTENT is approved by `followups.intent: auto`: the person approves PLAN and the work.
    expect((await approveGates(job, 2, wake)).state).toBe("DONE");
    const record = JSON.parse(git(job.repoDir, "show", `cfa/1:${round(2)}/state.json`)) as {
      priorEntries: unknown;
      engine: {
        followUp: { base: string; request: { kind: string } };
        escalations: Record<string, { answeredBy?: string }>;
      };
    };
    expect(record.priorEntries).toEqual({ INTENT: 1, PLAN: 1, EXECUTE: 1 });
    // The follow-up started from the person's commit, and its task saw the file.
    expect(record.engine.followUp.base).toBe(pushed);
    expect(git(job.repoDir, "show", "cfa/1:NOTES.md")).toBe("by hand");
    expect(Object.values(record.engine.escalations).map((e) => e.answeredBy)).toContain(
      "followups.intent: auto",
    );
    expect(git(job.repoDir, "show", "cfa/1:hello.txt")).toBe("HELLO");
    // The first job's records are what they were at DONE.
    expect(git(job.repoDir, "rev-parse", `cfa/1:${ART}`)).toBe(
      git(job.repoDir, "rev-parse", `${doneCommit}:${ART}`),
    );
  });

  it("chatter after DONE starts nothing; /cfa does, and a second /cfa while it runs is an intervention, said once", async () => {
    await comment(job, "thanks!");
    expect((await wake(1, job.deps)).state).toBe("DONE");
    expect(
      git(job.repoDir, "ls-tree", "--name-only", "cfa/1:.cfa/jobs").split("\n").sort(),
    ).toEqual(["1", "1.2"]);

    await comment(job, "/cfa now whisper it");
    const asked = await wake(1, job.deps);
    expect(asked).toMatchObject({ state: "PLAN" });
    await comment(job, "/cfa in French");
    await wake(1, job.deps);
    const notices = (await job.forge.listComments(1)).filter(
      (c) => readHiddenBlock(c.body)?.kind === "notice" && c.body.includes("intervention"),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body).toContain("follow-up 3 of job #1 is running (PLAN)");
    expect(git(job.repoDir, "show", `cfa/1:${round(3)}/PLAN.md`)).toContain("in French");
    expect(asConversationModel(job.model).unplayed()).toEqual({});
  });
});

/** The person's commit of `file` on cfa/1, made in the worktree that has it checked out. */
function personCommit(job: LocalJob, file: string, text: string): string {
  const tree = join(job.workRoot, "1", "job");
  writeFileSync(join(tree, file), text);
  git(tree, "add", file);
  git(
    tree,
    "-c",
    "user.name=ana",
    "-c",
    "user.email=ana@example.com",
    "commit",
    "-q",
    "-m",
    `${file} by hand`,
  );
  return git(job.repoDir, "rev-parse", "cfa/1");
}

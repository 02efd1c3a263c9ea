// run, answer, approve, reject, intervene and withdraw on a local repository, with a scripted
// model through the test seam (never the network), each recorded with --record; then the
// recording replays to the same end.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createScriptedModel, type ScriptedModel } from "../../../src/adapters/scripted/index.js";
import { main } from "../../../src/cli/main.js";
import { steppingClock } from "../../../src/ports/clock.js";
import { call, expecting, recording, say, tools } from "../../support/engine/script.js";
import { finish, gate, writeArtifact } from "../../support/engine/recordings.js";
import { captureIo, type CapturedIo } from "../../support/cli/capture-io.js";
import { useGreetRepo } from "../../support/cli/use-greet-repo.js";

const ART = ".cfa/jobs/1";

function script() {
  return recording({
    "intent-lead@state:intent:1": [
      tools(call("read_file", { path: "README.md" })),
      writeArtifact("INTENT.md", "# Intent\n\nGreet.\n"),
      tools(call("ask_question", { kind: "question", text: "English or French?" })),
      expecting(writeArtifact("INTENT.md", "# Intent\n\nGreet in English.\n"), "English"),
      gate("INTENT.md", "INTENT.md ready"),
      expecting(finish("APPROVED_INTENT", "approved"), "approved by @ana"),
    ],
    "project-lead@state:plan:1": [
      writeArtifact("PLAN.md", "# Plan\n\nOne file.\n"),
      gate("PLAN.md", "PLAN.md ready"),
      expecting(writeArtifact("PLAN.md", "# Plan\n\nOne file, one test.\n"), "Add a test"),
      gate("PLAN.md", "PLAN.md revised"),
      expecting(say("Noted: it stays one file."), "Keep it to one file"),
    ],
  });
}

const { local, workRoot } = useGreetRepo();
let model: ScriptedModel;
const clock = steppingClock("2026-05-04T08:00:00.000Z");
const rec = () => join(local().root, "session.json");

async function cfa(...argv: string[]): Promise<{ code: number; io: CapturedIo }> {
  const io = captureIo({ cwd: local().repo, model, clock, workRoot: workRoot() });
  const code = await main(argv, io);
  return { code, io };
}

beforeAll(() => {
  model = createScriptedModel(script(), { source: "verbs test" });
});

describe("the verbs on a local job, in order", () => {
  it("run refuses a --record file it could not write, before it changes anything", async () => {
    const missing = await cfa("run", "Greet", "--record", join(local().root, "nope", "x.json"));
    expect(missing.code).toBe(1);
    expect(missing.io.err()).toContain("/nope does not exist.");
    const existing = await cfa("run", "Greet", "--record", join(local().repo, "README.md"));
    expect(existing.code).toBe(1);
    expect(existing.io.err()).toContain("README.md already exists");
    expect(local().git("branch", "--list", "cfa/*")).toBe("");
  });

  it("run opens job #1, shows the log and ends on the question", async () => {
    const { code, io } = await cfa("run", "Add a greeting\nIn a file.", "--record", rec());
    expect(io.err()).toBe("");
    expect(code).toBe(0);
    const out = io.out();
    expect(out).toContain(`Opened job #1 in ${local().repo}: "Add a greeting"`);
    expect(out).toMatch(
      /\[#1\] \d\d:\d\d:\d\d INTENT {8}START {5}intent-lead sparked on state:intent:1/,
    );
    expect(out).toContain("intent-lead   ASK       q1: English or French?");
    expect(out).toContain("INTENT — waiting on your answer to q1:");
    expect(out).toContain('answer: `cfa answer 1 --id q1 "…"`');
    // The person who ran it opened the issue: git's user.name made into a login.
    expect(local().git("branch", "--list", "cfa/1")).toContain("cfa/1");
  });

  it("approve is refused while the job waits on a question, and changes nothing", async () => {
    const head = local().git("rev-parse", "cfa/1");
    const { code, io } = await cfa("approve", "1");
    expect(code).toBe(1);
    expect(io.err()).toContain(
      "cfa: job #1 is not waiting on a review: it waits on your answer to q1",
    );
    expect(local().git("rev-parse", "cfa/1")).toBe(head);
  });

  it("answer with a wrong id is refused, naming the open ones", async () => {
    const { code, io } = await cfa("answer", "1", "--id", "q7", "English");
    expect(code).toBe(1);
    expect(io.err()).toContain("cfa: job #1 has no open question q7 (open: q1).");
  });

  it("answer reaches the lead, which revises INTENT.md and asks for review", async () => {
    const { code, io } = await cfa("answer", "1", "English", "--record", rec());
    expect(code).toBe(0);
    expect(io.out()).toContain('▶ @ana answers job #1: "English"');
    expect(io.out()).toContain("HUMAN         ANSWER    q1 by @ana");
    expect(io.out()).toContain(
      'INTENT — waiting on you to review INTENT.md: `cfa approve 1` or `cfa reject 1 --comment "…"`',
    );
    expect(io.out()).toContain("read it: git show cfa/1:.cfa/jobs/1/INTENT.md");
    expect(local().git("show", `cfa/1:${ART}/INTENT.md`)).toContain("Greet in English.");
  });

  it("approve moves the job to PLAN, where the lead asks for review of PLAN.md", async () => {
    const { code, io } = await cfa("approve", "1", "--record", rec());
    expect(code).toBe(0);
    expect(io.out()).toContain("▶ @ana approves INTENT.md of job #1");
    expect(io.out()).toContain("PLAN          APPROVED_INTENT INTENT → PLAN: approved");
    expect(io.out()).toContain("PLAN — waiting on you to review PLAN.md:");
  });

  it("reject sends the comment to the lead, which revises PLAN.md", async () => {
    const { code, io } = await cfa("reject", "1", "--comment", "Add a test.", "--record", rec());
    expect(code).toBe(0);
    expect(io.out()).toContain('▶ @ana requests changes to PLAN.md of job #1: "Add a test."');
    expect(io.out()).toContain("HUMAN         CHANGES   q3 by @ana");
    expect(io.out()).toContain("project-lead  ASSERT    q4: PLAN.md revised");
    expect(local().git("show", `cfa/1:${ART}/PLAN.md`)).toContain("One file, one test.");
  });

  it("intervene wakes the lead on it ([wake-int]); the gate stays open", async () => {
    const { code, io } = await cfa("intervene", "1", "Keep it to one file", "--record", rec());
    expect(code).toBe(0);
    expect(io.out()).toContain("HUMAN         INTERVENE @ana: Keep it to one file");
    expect(io.out()).toContain("HUMAN         INTERVENE @ana → project-lead");
    // The live log prints what this command's wake recorded, not the job's earlier lines.
    expect(io.out()).not.toContain("JOB           START");
    expect(io.out()).not.toContain("ASSERT    q4");
    expect(io.out()).toContain("PLAN — waiting on you to review PLAN.md:");
  });

  it("withdraw ends the job WITHDRAWN; later actions are refused", async () => {
    const { code, io } = await cfa("withdraw", "1", "Changed my mind", "--record", rec());
    expect(code).toBe(0);
    expect(io.out()).toContain("WITHDRAWN — Changed my mind. The record stays on cfa/1.");
    const again = await cfa("approve", "1");
    expect(again.code).toBe(1);
    expect(again.io.err()).toContain("cfa: job #1 is WITHDRAWN: it takes no more actions.");
    expect(model.remaining()).toEqual({
      "intent-lead@state:intent:1": 0,
      "project-lead@state:plan:1": 0,
    });
  });

  it("watch and inspect read the story back from the records", async () => {
    const watch = await cfa("watch", "1");
    expect(watch.code).toBe(0);
    expect(watch.io.out()).toContain("HUMAN         CHANGES   q3 by @ana: Add a test.");
    expect(watch.io.out()).toContain("HUMAN         INTERVENE @ana: Keep it to one file");
    expect(watch.io.out()).toContain("WITHDRAWN — Changed my mind.");
    const follow = await cfa("watch", "1", "--follow");
    expect(follow.code).toBe(0); // a terminal job: nothing to follow
    const inspect = await cfa("inspect", "1");
    expect(inspect.code).toBe(0);
    expect(inspect.io.out()).toContain("├── PLAN ⊘ WITHDRAW at");
    expect(inspect.io.out()).toContain("gate q3 PLAN.md");
    expect(inspect.io.out()).toContain("└── WITHDRAWN at");
  });

  it("the recording holds every response and action, and replays to the same end", async () => {
    const file = JSON.parse(await readFile(rec(), "utf8")) as {
      person: string;
      request: { title: string; body: string };
      files: Record<string, string>;
      people: { action: string; text?: string }[];
      recording: { instances: Record<string, unknown[]> };
    };
    expect(file.person).toBe("ana");
    expect(file.request).toEqual({ title: "Add a greeting", body: "Add a greeting\nIn a file." });
    expect(file.files).toEqual({ "README.md": "# greet\n\nA greeting.\n" });
    expect(file.people.map((p) => p.action)).toEqual([
      "answer",
      "approve",
      "reject",
      "intervene",
      "withdraw",
    ]);
    expect(file.recording.instances["intent-lead@state:intent:1"]).toHaveLength(6);
    expect(file.recording.instances["project-lead@state:plan:1"]).toHaveLength(5);

    const io = captureIo({ cwd: local().root });
    const code = await main(["replay", rec(), "--dir", join(local().root, "replayed")], io);
    expect(io.err()).toBe("");
    expect(code).toBe(0);
    expect(io.out()).toContain("WITHDRAWN — Changed my mind.");
    const replayed = JSON.parse(
      (await import("node:child_process")).execFileSync(
        "git",
        ["show", `cfa/1:${ART}/state.json`],
        {
          cwd: join(local().root, "replayed", "repo"),
          encoding: "utf8",
        },
      ),
    ) as { state: string; history: { action: string; reason: string }[] };
    const original = JSON.parse(local().git("show", `cfa/1:${ART}/state.json`)) as typeof replayed;
    expect(replayed.state).toBe("WITHDRAWN");
    expect(replayed.history.map((h) => [h.action, h.reason])).toEqual(
      original.history.map((h) => [h.action, h.reason]),
    );
  });
});

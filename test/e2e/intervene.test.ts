// Intervention is preemption (docs/protocol.md#intervention): `/intervene <text>` reaches the
// current lead within one model call, not one turn. A running lead's Run abandons what it
// was on for the intervention at its next call boundary ([interrupt]): the very next request
// carries it, with the turn's context. An idle lead is woken directly on it ([wake-int]),
// ahead of its mail — in the middle of a round it joins the round at once.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import type { Model, ModelRequest } from "../../src/ports/model.js";
import { createConversationModel } from "../support/engine/conversation-model.js";
import { type LocalJob } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { ANA, approve, openJob, say as comment } from "../support/engine/person.js";
import { commentsOfKind, fileOnBranch, foldedBus, state } from "../support/engine/inspect.js";
import { call, expecting, recording, say, tools } from "../support/engine/script.js";
import {
  finish,
  gate,
  pass,
  writeArtifact,
  approveGate,
  proxiedToExecute,
  busyWorker,
  dispatchX,
  summedUp,
} from "../support/engine/recordings.js";

const LEAD = "intent-lead@state:intent:1";
const TEXT = "Greet in French too.";
const carries = (r: { request: ModelRequest }) => JSON.stringify(r.request.messages).includes(TEXT);
/**
 * The intent lead looks around `looks` times, then writes INTENT.md saying `intent` — a step
 * played only once the intervention reached it — and asks its gate.
 */
const hearsIntervention = (looks: number, intent: string) =>
  createConversationModel(
    recording({
      [LEAD]: [
        ...Array.from({ length: looks }, () => tools(call("list_files", {}))),
        expecting(writeArtifact("INTENT.md", `# Intent\n\n${intent}\n`), TEXT),
        gate("INTENT.md"),
      ],
    }),
  );

describe("intervene", () => {
  const newJob = useLocalJobs();

  /**
   * A job on `script` where the person comments `/intervene TEXT` while the lead's first call
   * is in flight (then `onPosted` runs); `posted()` is the index of that call's request.
   */
  async function intervenedDuringFirstCall(
    script: ReturnType<typeof hearsIntervention>,
    onPosted: () => void = () => {},
  ) {
    let posted = -1;
    const model: Model = {
      async complete(request, options) {
        const response = await script.complete(request, options);
        if (request.instance === LEAD && posted < 0) {
          posted = script.requests.length - 1;
          await job.forge.commentAs(ANA, 1, `/intervene ${TEXT}`);
          onPosted();
        }
        return response;
      },
    };
    const job = await newJob({ model });
    return { job, posted: () => posted };
  }

  it("[interrupt]: posted while the lead's turn runs, it is in the lead's very next request — one model call, same turn", async () => {
    const script = hearsIntervention(1, "Greet in English and French.");
    const { job, posted } = await intervenedDuringFirstCall(script);
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.waitingOn).toContain("review INTENT.md");
    expect(script.unplayed()).toEqual({});

    // Latency in model calls: the first request after the comment carries it.
    const first = script.requests.findIndex(carries);
    expect(first - posted()).toBe(1);
    expect(script.requests[first]).toMatchObject({ instance: LEAD, step: 1 });

    // One turn: the intervention follows the first call's tool result, as the person's words.
    const lines = (
      fileOnBranch(job, `.cfa/jobs/1/instances/${LEAD.replace(/:/g, "~")}.jsonl`) ?? ""
    )
      .split("\n")
      .map((l) => JSON.parse(l) as { turn: number; type: string; message?: { role: string } });
    expect(Math.max(...lines.map((l) => l.turn))).toBe(1);
    const seen = lines.filter((l) => l.type === "message" && JSON.stringify(l).includes(TEXT));
    expect(seen[0]).toMatchObject({ turn: 1, message: { role: "user" } });
    expect(JSON.stringify(seen[0])).toContain(
      `The person intervened:\\n<untrusted-data source=\\"intervention by @ana\\">\\n${TEXT}\\n</untrusted-data>`,
    );
    // On the bus: an Interrupt on the lead's thread, consumed by its Run ([interrupt]).
    const events = foldedBus(job)
      .text.split("\n")
      .filter((l) => l.includes(TEXT))
      .map((l) => JSON.parse(l) as { type: string; thread?: string; rule?: string });
    expect(events.map((e) => e.type)).toContain("interrupt");
    expect(
      events.find((e) => e.type === "interrupt" && e.thread === "state:intent:1"),
    ).toBeDefined();
    expect(fileOnBranch(job, ".cfa/jobs/1/INTENT.md")).toContain("French");
  });

  it("a look that fails while the turn runs is not the turn's failure: the next call's look delivers it", async () => {
    const script = hearsIntervention(2, "Greet in French too.");
    let failLooks = 0;
    const { job, posted } = await intervenedDuringFirstCall(script, () => {
      failLooks = 1;
    });
    await openJob(job);
    // The forge fails the look right after the comment (GitHub down past its retries).
    const forge = job.deps.forge;
    const flaky = new Proxy(forge, {
      get(target, prop, receiver) {
        if (prop === "issueChanged") {
          return async (n: number) => {
            if (failLooks > 0) {
              failLooks -= 1;
              throw new Error("GitHub answered 502 on issues.get");
            }
            return target.issueChanged(n);
          };
        }
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const summary = await wake(1, { ...job.deps, forge: flaky });
    expect(summary.waitingOn).toContain("review INTENT.md");
    expect(summary.state).toBe("INTENT");
    expect(failLooks).toBe(0);
    // One call later than it would have been, in the same turn, and no failure spent.
    expect(script.requests.findIndex(carries) - posted()).toBe(2);
    expect(script.unplayed()).toEqual({});
    expect(state(job).failures).toBe(0);
    expect(state(job).history).toEqual([]);
    expect(job.warnings.join("\n")).toContain(
      "could not look for new commands while turns run; the round's end will: GitHub answered 502",
    );
  });

  it("[wake-int]: while the lead waits at a gate it revises and asks again, the old gate is retracted, and approving the new one moves on", async () => {
    const job = await newJob({
      recording: recording({
        [LEAD]: [
          writeArtifact("INTENT.md", "# Intent\n\nGreet.\n"),
          gate("INTENT.md"),
          expecting(writeArtifact("INTENT.md", "# Intent\n\nGreet, in French too.\n"), TEXT),
          gate("INTENT.md", "Revised after your intervention"),
          expecting(finish("APPROVED_INTENT"), "approved by @ana"),
        ],
        "project-lead@state:plan:1": [writeArtifact("PLAN.md", "# Plan\n"), gate("PLAN.md")],
      }),
    });
    await openJob(job);
    expect((await wake(1, job.deps)).waitingOn).toContain("gate `q1`");

    await comment(job, `/intervene ${TEXT}`);
    const revised = await wake(1, job.deps);
    expect(revised.waitingOn).toContain("gate `q2`");
    // One gate is open: the person's review can only answer the artifact as it is now.
    expect(
      foldedBus(job)
        .folded.soup.pendingEscalations()
        .map((m) => `${m.kind} ${m.id}`),
    ).toEqual(["AskHuman q2"]);

    await approve(job);
    const moved = await wake(1, job.deps);
    expect(moved.state).toBe("PLAN");
    expect(await commentsOfKind(job, "refusal")).toEqual([]);
  });

  describe("an idle lead whose worker is busy", () => {
    const EXEC = "project-lead@state:execute:1";
    const WORKER = "worker@dispatch:x";
    const script = () =>
      createConversationModel(
        recording({
          ...proxiedToExecute(),
          [EXEC]: [
            dispatchX(),
            say("Dispatched."),
            expecting(say("Noted: French too."), TEXT),
            tools(call("close", { task: "x" })),
            ...summedUp("x is done.", "WORK_SUMMARY.md is ready"),
          ],
          [WORKER]: busyWorker(),
          "verifier@verify:x-1": pass(),
          "proxy@escalation:q3": approveGate(),
        }),
      );
    const CONFIG = "escalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: never\n";

    /** A job whose worker calls take 100 ms; the person intervenes during the worker's first. */
    async function slowWorkerJob(inner: ReturnType<typeof script>): Promise<LocalJob> {
      let posted = false;
      const job: LocalJob = await newJob({
        model: {
          async complete(request, options) {
            if (request.instance === WORKER) {
              if (!posted) {
                posted = true;
                await job.forge.commentAs(ANA, 1, `/intervene ${TEXT}`);
              }
              await new Promise((r) => setTimeout(r, 100));
            }
            return inner.complete(request, options);
          },
        },
        config: CONFIG,
      });
      return job;
    }

    it("[wake-int] mid-round: the lead joins the round in flight and answers before the worker's turn ends", async () => {
      const inner = script();
      const job = await slowWorkerJob(inner);
      await openJob(job);
      const summary = await wake(1, job.deps);
      expect(summary.state).toBe("DONE");
      expect(inner.unplayed()).toEqual({});
      const order = inner.requests.map((r) => `${r.instance} ${r.step}`);
      const leadHeard = order.indexOf(`${EXEC} 2`);
      expect(carries(inner.requests[leadHeard]!)).toBe(true);
      // The lead's turn on the intervention ran while the worker was still working.
      expect(leadHeard).toBeLessThan(order.indexOf(`${WORKER} 3`));
      expect(job.lines.some((l) => l.event === "JOIN" && l.detail.includes(EXEC))).toBe(true);
    });

    it("[wake-int] at a round's end: the lead runs on the intervention ahead of the reply already in its mailbox", async () => {
      const inner = script();
      const job = await slowWorkerJob(inner);
      await openJob(job);
      // No looking mid-round: the intervention is read when the worker's round ends, by which
      // time the worker's reply waits in the lead's mailbox.
      const summary = await wake(1, { ...job.deps, commandPollMs: Number.MAX_SAFE_INTEGER });
      expect(summary.state).toBe("DONE");
      const onIntervention = inner.requests.find((r) => r.instance === EXEC && r.step === 2)!;
      expect(carries(onIntervention)).toBe(true);
      expect(JSON.stringify(onIntervention.request.messages)).not.toContain("x done");
      const onReply = inner.requests.find((r) => r.instance === EXEC && r.step === 3)!;
      expect(JSON.stringify(onReply.request.messages)).toContain("x done");
    });
  });

  it("a second wake of a job that is running stays out; the running wake delivers the intervention (`cfa intervene` from another terminal)", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const script = hearsIntervention(1, "Greet in French too.");
    let calls = 0;
    const model: Model = {
      async complete(request, options) {
        calls += 1;
        // The first call waits until the other "terminal" has done its part.
        if (calls === 1) await held;
        return script.complete(request, options);
      },
    };
    const job = await newJob({ model });
    await openJob(job);
    const running = wake(1, job.deps);
    while (calls === 0) await new Promise((r) => setTimeout(r, 10));
    // The other terminal: comment, then try to wake the job.
    await comment(job, `/intervene ${TEXT}`);
    const second = await wake(1, await job.reopen());
    expect(second.busy?.pid).toBe(process.pid);
    expect(second.notes[0]).toContain("being worked on by another process");
    release();
    const summary = await running;
    expect(summary.waitingOn).toContain("review INTENT.md");
    expect(carries(script.requests[1]!)).toBe(true);
  });

  describe("while a worker's turn runs", () => {
    const EXEC = "project-lead@state:execute:1";
    const WORKER = "worker@dispatch:x";
    const CONFIG = "escalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: never\n";
    const upToExecute = () => ({
      ...proxiedToExecute(),
    });

    it("an intervention the lead never reached before its phase ended goes to the next lead", async () => {
      const FIRST = "Re-plan: the API changed.";
      const SECOND = "And keep the old endpoint.";
      const inner = createConversationModel(
        recording({
          ...upToExecute(),
          [EXEC]: [
            dispatchX(),
            say("Dispatched."),
            expecting(finish("REPLAN", "the person asked to re-plan"), FIRST),
          ],
          [WORKER]: busyWorker(),
          "project-lead@state:plan:2": [expecting(say("Noted: keep the old endpoint."), SECOND)],
        }),
      );
      const posted = new Set<string>();
      const model: Model = {
        async complete(request, options) {
          const post = async (text: string) => {
            if (posted.has(text)) return;
            posted.add(text);
            await job.forge.commentAs(ANA, 1, `/intervene ${text}`);
          };
          if (request.instance === WORKER) {
            await post(FIRST);
            await new Promise((r) => setTimeout(r, 150));
          }
          if (request.instance === EXEC && JSON.stringify(request.messages).includes(FIRST)) {
            // Relayed by the worker's next boundary while the lead's last call is in flight.
            await post(SECOND);
            await new Promise((r) => setTimeout(r, 400));
          }
          return inner.complete(request, options);
        },
      };
      const job = await newJob({ model, config: CONFIG });
      await openJob(job);
      // Seven rounds reach the first turn of PLAN's second entry.
      const summary = await wake(1, job.deps, { maxTurns: 7 });
      expect(summary.state).toBe("PLAN");
      const heard = inner.requests.find((r) => r.instance === "project-lead@state:plan:2");
      expect(heard).toBeDefined();
      expect(JSON.stringify(heard!.request.messages)).toContain(SECOND);
      expect(job.lines.some((l) => l.detail.includes("carried over to project-lead"))).toBe(true);
    });

    it("a /withdraw stops every running turn at its next model call", async () => {
      const inner = createConversationModel(
        recording({
          ...upToExecute(),
          [EXEC]: [dispatchX(), say("Dispatched.")],
          [WORKER]: busyWorker(),
        }),
      );
      let posted = false;
      const model: Model = {
        async complete(request, options) {
          if (request.instance === WORKER && !posted) {
            posted = true;
            await job.forge.commentAs(ANA, 1, "/withdraw not needed");
          }
          return inner.complete(request, options);
        },
      };
      const job = await newJob({ model, config: CONFIG });
      await openJob(job);
      const summary = await wake(1, job.deps);
      expect(summary.state).toBe("WITHDRAWN");
      // The worker's first call was in flight; it made no other.
      expect(inner.requests.filter((r) => r.instance === WORKER)).toHaveLength(1);
    });
  });
});

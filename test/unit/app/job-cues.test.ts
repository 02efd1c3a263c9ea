import { describe, expect, it } from "vitest";
import { createJobCues, type JobCues } from "../../../src/app/job-cues.js";

interface Harness {
  cues: JobCues;
  sent: { job: string; cancel: boolean }[];
  /** Sends handed to the write queue and not yet run. */
  queued: (() => Promise<void>)[];
  clock: { now: number };
  runQueued(): Promise<void>;
}

function harness(maxDelayMs = 10_000): Harness {
  const queued: (() => Promise<void>)[] = [];
  const clock = { now: 0 };
  const cues = createJobCues({
    enqueue: (send) =>
      new Promise<void>((resolve, reject) => {
        queued.push(() => send().then(resolve, reject));
      }),
    maxDelayMs,
    now: () => clock.now,
  });
  const sent: Harness["sent"] = [];
  return {
    cues,
    sent,
    queued,
    clock,
    async runQueued() {
      while (queued.length > 0) await queued.shift()!();
    },
  };
}

const cue = (h: Harness, job: string, cancel = false, fail = false) =>
  h.cues.cue(job, {
    cancel,
    send: (c) => {
      h.sent.push({ job, cancel: c });
      return fail ? Promise.reject(new Error("422")) : Promise.resolve();
    },
  });

describe("cues for one job coalesce into one dispatch per burst", () => {
  it("thirty cues decided while the job's deliveries are in triage make one dispatch, sent after the last", async () => {
    const h = harness();
    for (let i = 0; i < 30; i += 1) h.cues.expect("o/r#7");
    const done: Promise<void>[] = [];
    for (let i = 0; i < 30; i += 1) {
      done.push(cue(h, "o/r#7"));
      if (i < 29) expect(h.queued).toHaveLength(0);
      h.cues.settle("o/r#7");
    }
    expect(h.queued).toHaveLength(1);
    await h.runQueued();
    await Promise.all(done);
    expect(h.sent).toEqual([{ job: "o/r#7", cancel: false }]);
    expect(h.cues.waiting()).toBe(0);
  });

  it("a /withdraw among them makes the one dispatch cancel the job's runs first", async () => {
    const h = harness();
    h.cues.expect("o/r#7");
    h.cues.expect("o/r#7");
    void cue(h, "o/r#7", true);
    h.cues.settle("o/r#7");
    void cue(h, "o/r#7", false);
    h.cues.settle("o/r#7");
    await h.runQueued();
    expect(h.sent).toEqual([{ job: "o/r#7", cancel: true }]);
  });

  it("a cue decided after its job's dispatch was handed over starts the next burst", async () => {
    const h = harness();
    h.cues.expect("o/r#7");
    void cue(h, "o/r#7");
    h.cues.settle("o/r#7");
    h.cues.expect("o/r#7");
    void cue(h, "o/r#7");
    h.cues.settle("o/r#7");
    expect(h.queued).toHaveLength(2);
    await h.runQueued();
    expect(h.sent).toHaveLength(2);
  });

  it("other jobs are not held back by a job still in triage", () => {
    const h = harness();
    h.cues.expect("o/r#7");
    h.cues.expect("o/r#8");
    void cue(h, "o/r#8");
    h.cues.settle("o/r#8");
    expect(h.queued).toHaveLength(1);
    expect(h.cues.waiting()).toBe(1);
  });

  it("a job that never stops receiving deliveries is still dispatched once its burst is maxDelayMs old", () => {
    const h = harness(5_000);
    h.cues.expect("o/r#7");
    h.cues.expect("o/r#7");
    void cue(h, "o/r#7");
    h.clock.now = 4_999;
    h.cues.settle("o/r#7");
    h.cues.expect("o/r#7");
    expect(h.queued).toHaveLength(0);
    h.clock.now = 5_000;
    void cue(h, "o/r#7");
    expect(h.queued).toHaveLength(1);
  });

  it("a failed dispatch rejects every cue it covered", async () => {
    const h = harness();
    h.cues.expect("o/r#7");
    h.cues.expect("o/r#7");
    const first = cue(h, "o/r#7", false, true);
    h.cues.settle("o/r#7");
    const second = cue(h, "o/r#7", false, true);
    h.cues.settle("o/r#7");
    await h.runQueued().catch(() => undefined);
    await expect(first).rejects.toThrow("422");
    await expect(second).rejects.toThrow("422");
  });

  it("settling a job with nothing in triage is a bug, said so", () => {
    expect(() => harness().cues.settle("o/r#7")).toThrow(/without a delivery in triage/);
  });
});

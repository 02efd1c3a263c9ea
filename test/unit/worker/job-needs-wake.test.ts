import { describe, expect, it } from "vitest";
import { initialEngineState, type EngineState } from "../../../src/records/engine-state.js";
import { jobNeedsWake, type JobFacts } from "../../../src/worker/job-needs-wake.js";

function waiting(engine: EngineState = initialEngineState("ana")): EngineState {
  return {
    ...engine,
    cursor: { comment: 50, review: 70 },
    escalations: {
      q1: {
        caller: "intent-lead@state:intent:1",
        kind: "gate",
        state: "INTENT",
        text: "ok?",
        postedSeq: 3,
      },
    },
  };
}

const facts = (over: Partial<JobFacts> = {}): JobFacts => ({
  state: "INTENT",
  engine: waiting(),
  issue: { state: "open", labels: ["cfa"] },
  label: "cfa",
  latestComment: 50,
  latestReview: 70,
  ...over,
});

describe("does a job need a worker (the sweep)", () => {
  it("a job waiting on a person who has not answered does not", () => {
    expect(jobNeedsWake(facts())).toEqual([]);
  });

  it("a terminal job never does", () => {
    expect(jobNeedsWake(facts({ state: "DONE", latestComment: 99 }))).toEqual([]);
    expect(
      jobNeedsWake(facts({ state: "WITHDRAWN", issue: { state: "closed", labels: [] } })),
    ).toEqual([]);
  });

  it("a comment or review past the cursor does (a lost delivery)", () => {
    expect(jobNeedsWake(facts({ latestComment: 51 }))).toEqual(["a comment it has not read"]);
    expect(jobNeedsWake(facts({ latestReview: 71 }))).toEqual(["a review it has not read"]);
  });

  it("a closed issue or a removed label does (a Terminate to apply)", () => {
    expect(jobNeedsWake(facts({ issue: { state: "closed", labels: ["cfa"] } }))).toEqual([
      "the issue was closed",
    ]);
    expect(jobNeedsWake(facts({ issue: { state: "open", labels: [] } }))).toEqual([
      "`cfa` was removed",
    ]);
  });

  it("a paused job is left alone — idle agents, an API wait — but not a comment, a closed issue or a closed pull request", () => {
    const paused: EngineState = {
      ...initialEngineState("ana"),
      cursor: { comment: 50, review: 70 },
      pr: 4,
      paused: { by: "ana", since: "t", reason: "the weekend" },
      apiWait: { since: "t0", attempts: 3, last: "529" },
    };
    expect(jobNeedsWake(facts({ engine: paused }))).toEqual([]);
    // Positive control: the same job unpaused needs a wake for both.
    const { paused: _p, ...running } = paused;
    expect(jobNeedsWake(facts({ engine: running }))).toHaveLength(2);
    expect(jobNeedsWake(facts({ engine: paused, latestComment: 51 }))).toEqual([
      "a comment it has not read",
    ]);
    expect(
      jobNeedsWake(facts({ engine: paused, issue: { state: "closed", labels: ["cfa"] } })),
    ).toEqual(["the issue was closed"]);
    expect(jobNeedsWake(facts({ engine: paused, pullRequest: { state: "closed" } }))).toEqual([
      "its pull request #4 was closed",
    ]);
  });

  it("a gate's reminder is due once after remindAfterHours, its expiry after expireAfterDays", () => {
    const posted = (patch: object = {}): EngineState => {
      const e = waiting();
      e.escalations["q1"] = {
        ...e.escalations["q1"]!,
        postedAt: "2026-11-22T10:00:00.000Z",
        ...patch,
      };
      return e;
    };
    const gates = { remindAfterHours: 24, expireAfterDays: 7 };
    const after = (hours: number) =>
      new Date(Date.parse("2026-11-22T10:00:00.000Z") + hours * 3_600_000);
    expect(jobNeedsWake(facts({ engine: posted(), gates, now: after(23) }))).toEqual([]);
    expect(jobNeedsWake(facts({ engine: posted(), gates, now: after(25) }))).toEqual([
      "gate q1 waited 25 h: its reminder is due",
    ]);
    // Reminded already: nothing until the expiry.
    const reminded = posted({ remindedAt: "2026-11-23T11:00:00.000Z" });
    expect(jobNeedsWake(facts({ engine: reminded, gates, now: after(100) }))).toEqual([]);
    expect(jobNeedsWake(facts({ engine: reminded, gates, now: after(7 * 24) }))).toEqual([
      "gate q1 waited 7 days: it expired",
    ]);
    // Without a policy, or from records that never noted when the gate was posted: never.
    expect(jobNeedsWake(facts({ engine: posted(), gates: {}, now: after(1000) }))).toEqual([]);
    expect(jobNeedsWake(facts({ engine: waiting(), gates, now: after(1000) }))).toEqual([]);
    // Answered, or paused: never.
    expect(
      jobNeedsWake(
        facts({
          engine: posted({ answeredBy: "ana", verdict: "approved" }),
          gates,
          now: after(1000),
        }),
      ),
    ).not.toContain("gate q1 waited 1000 h: its reminder is due");
    const paused = { ...posted(), paused: { by: "ana", since: "t", reason: "r" } };
    expect(jobNeedsWake(facts({ engine: paused, gates, now: after(1000) }))).toEqual([]);
  });

  it("a live job that asks nobody anything does (its last run stopped early)", () => {
    const answered = waiting();
    answered.escalations["q1"] = { ...answered.escalations["q1"]!, answeredBy: "ana" };
    expect(jobNeedsWake(facts({ engine: answered }))).toEqual([
      "not waiting on anyone, and no run is working on it",
    ]);
    // A question from an earlier state does not count as waiting now.
    expect(jobNeedsWake(facts({ state: "PLAN" }))).toEqual([
      "not waiting on anyone, and no run is working on it",
    ]);
  });

  it("comments decided but not posted do", () => {
    const engine = { ...waiting(), outbox: [{ seq: 4, kind: "refusal", body: "x" }] };
    expect(jobNeedsWake(facts({ engine }))).toEqual(["comments decided but not posted"]);
  });

  it("a job that waits on the Anthropic API does, even while a person's answer is pending", () => {
    const engine: EngineState = {
      ...waiting(),
      apiWait: { since: "2026-11-22T10:00:00.000Z", attempts: 12, last: "529 overloaded" },
    };
    expect(jobNeedsWake(facts({ engine }))).toEqual([
      "waiting for the Anthropic API since 2026-11-22T10:00:00.000Z",
    ]);
  });

  it("a job whose pull request a person closed is woken, so its wake withdraws it", () => {
    const engine = { ...waiting(), pr: 12 };
    expect(jobNeedsWake(facts({ engine, pullRequest: { state: "closed" } }))).toEqual([
      "its pull request #12 was closed",
    ]);
    expect(jobNeedsWake(facts({ engine, pullRequest: { state: "open" } }))).toEqual([]);
  });
});

// Gate reminders (a gate nobody answers must not wait forever): `gates.remindAfterHours` posts one
// comment mentioning the gate's reviewers, once, whatever number of wakes follow;
// `gates.expireAfterDays` withdraws the job with a reason naming it. A paused job is neither
// reminded nor expired.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { steppingClock } from "../../src/ports/clock.js";
import { type LocalJob } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { openJob, say } from "../support/engine/person.js";
import { commentsOfKind, state } from "../support/engine/inspect.js";
import { recording } from "../support/engine/script.js";
import { INTENT_STEPS } from "../support/engine/recordings.js";

const START = Date.parse("2026-11-22T10:00:00.000Z");
const CONFIG = "reviewers: [bob]\ngates:\n  remindAfterHours: 24\n  expireAfterDays: 7\n";
/** The job's deps with the clock `hours` after the job started. */
const at = (job: LocalJob, hours: number) => ({
  ...job.deps,
  clock: steppingClock(new Date(START + hours * 3_600_000).toISOString()),
});

describe("gate reminders", () => {
  const newJob = useLocalJobs();

  it("one reminder after remindAfterHours, mentioning every reviewer, never a second; expiry withdraws the job saying why", async () => {
    const job = await newJob({
      recording: recording({ "intent-lead@state:intent:1": INTENT_STEPS().slice(0, 2) }),
      config: CONFIG,
    });
    await openJob(job);
    expect((await wake(1, job.deps)).waitingOn).toContain("review INTENT.md");

    await wake(1, at(job, 23));
    expect(await commentsOfKind(job, "reminder")).toEqual([]);

    await wake(1, at(job, 25));
    const reminders = await commentsOfKind(job, "reminder");
    expect(reminders).toHaveLength(1);
    // The template's own mentions survive the outbound filter: both reviewers are pinged.
    expect(reminders[0]!.body).toMatch(/^⏰ @ana, @bob: gate `q1` has waited 2[45] hours/);
    expect(reminders[0]!.body).toContain("withdrawn after 7 days");
    expect((state(job).engine["escalations"] as Record<string, object>)["q1"]).toHaveProperty(
      "remindedAt",
    );

    // Later wakes (each sweep's, any verb's) do not remind again.
    await wake(1, at(job, 30));
    await say(job, "any news?");
    await wake(1, at(job, 100));
    expect(await commentsOfKind(job, "reminder")).toHaveLength(1);

    const expired = await wake(1, at(job, 7 * 24 + 1));
    expect(expired.state).toBe("WITHDRAWN");
    const last = state(job).history.at(-1)!;
    expect(last).toMatchObject({ action: "WITHDRAW", by: "gates.expireAfterDays" });
    expect(last.reason).toBe("gate q1 waited 7 days without a review (gates.expireAfterDays: 7)");
  });

  it("a paused gate is neither reminded nor expired; resumed, its wait counts again from the resume", async () => {
    const job = await newJob({
      recording: recording({ "intent-lead@state:intent:1": INTENT_STEPS().slice(0, 2) }),
      config: CONFIG,
    });
    await openJob(job);
    await wake(1, job.deps);
    await say(job, "/pause on holiday");
    await wake(1, job.deps);
    const paused = await wake(1, at(job, 8 * 24));
    expect(paused.state).toBe("INTENT");
    expect(await commentsOfKind(job, "reminder")).toEqual([]);

    await say(job, "/resume");
    expect((await wake(1, at(job, 8 * 24 + 1))).state).toBe("INTENT");
    expect(await commentsOfKind(job, "reminder")).toEqual([]);
    // A day after the resume: the reminder; a week after it: the expiry.
    await wake(1, at(job, 9 * 24 + 2));
    expect(await commentsOfKind(job, "reminder")).toHaveLength(1);
    expect((await wake(1, at(job, 15 * 24 + 2))).state).toBe("WITHDRAWN");
  });

  it("without gates in the config a gate waits for ever, with no reminder", async () => {
    const job = await newJob({
      recording: recording({ "intent-lead@state:intent:1": INTENT_STEPS().slice(0, 2) }),
    });
    await openJob(job);
    await wake(1, job.deps);
    expect((await wake(1, at(job, 365 * 24))).state).toBe("INTENT");
    expect(await commentsOfKind(job, "reminder")).toEqual([]);
  });
});

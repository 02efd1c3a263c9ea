// Intervention (seed 000 §8, DESIGN.md "What a user sees" 7): `/intervene <text>` reaches
// the current lead at its next turn boundary — as the message its next turn runs on, never
// inside the turn in flight.

import { afterEach, describe, expect, it } from "vitest";
import { wake } from "../../src/engine/wake.js";
import type { Model } from "../../src/ports/model.js";
import { createConversationModel } from "../support/engine/conversation-model.js";
import { createLocalJob, type LocalJob } from "../support/engine/local-job.js";
import { ANA, approve, openJob, say as comment } from "../support/engine/person.js";
import { commentsOfKind, fileOnBranch, foldedBus } from "../support/engine/inspect.js";
import { expecting, recording, say } from "../support/engine/script.js";
import { finish, gate, writeArtifact } from "../support/engine/recordings.js";

const LEAD = "intent-lead@state:intent:1";
const TEXT = "Greet in French too.";

describe("intervene", () => {
  let job: LocalJob;
  afterEach(async () => job?.cleanup());

  it("an /intervene comment posted mid-turn reaches the current lead as its next turn's message, not before", async () => {
    const script = createConversationModel(
      recording({
        [LEAD]: [
          writeArtifact("INTENT.md", "# Intent\n\nObjective: greet.\n"),
          say("Drafted; I will ask for review next."),
          expecting(writeArtifact("INTENT.md", "# Intent\n\nGreet in English and French.\n"), TEXT),
          gate("INTENT.md"),
        ],
      }),
    );
    let posted = false;
    // The person comments while the lead's first turn is in flight (its first model call).
    const model: Model = {
      async complete(request, options) {
        const response = await script.complete(request, options);
        if (request.instance === LEAD && !posted) {
          posted = true;
          await job.forge.commentAs(ANA, 1, `/intervene ${TEXT}`);
        }
        return response;
      },
    };
    job = await createLocalJob({ model });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(posted).toBe(true);
    expect(summary.waitingOn).toContain("review INTENT.md");
    expect(script.unplayed()).toEqual({});

    // By turn: the intervention is turn 2's opening message, and nothing of turn 1 saw it.
    const lines = (
      fileOnBranch(job, `.cfa/jobs/1/instances/${LEAD.replace(/:/g, "~")}.jsonl`) ?? ""
    )
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            turn: number;
            type: string;
            message?: { role: string; content: { type: string; text?: string }[] };
          },
      );
    const seen = lines.filter(
      (l) => l.type === "message" && JSON.stringify(l.message).includes(TEXT),
    );
    expect(seen[0]).toMatchObject({ turn: 2, message: { role: "user" } });
    expect(seen[0]!.message!.content.map((b) => b.text ?? "").join("")).toContain(
      `The person intervened:\n<untrusted-data source="intervention by @ana">\n${TEXT}\n</untrusted-data>`,
    );
    expect(lines.filter((l) => l.turn === 1).some((l) => JSON.stringify(l).includes(TEXT))).toBe(
      false,
    );
    expect(fileOnBranch(job, ".cfa/jobs/1/INTENT.md")).toContain("French");
  });

  it("an /intervene while the lead waits at a gate: the lead revises and asks again, the old gate is retracted, and approving the new one moves on", async () => {
    job = await createLocalJob({
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
});

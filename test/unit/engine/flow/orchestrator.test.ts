// The orchestrator's moves (src/engine/flow/orchestrator.ts) take the conversation and its log
// alone: a recovery is mail behind what the instance has not read yet, never to a thread that
// ended (docs/protocol.md#persistence), and what is appended folds back to the same soup.

import { describe, expect, it } from "vitest";
import { orchestrate, recover } from "../../../../src/engine/flow/orchestrator.js";
import { currentLead } from "../../../../src/engine/job/instances.js";
import { append, ORCHESTRATOR } from "../../../../src/engine/job/session.js";
import { readText } from "../../../../src/engine/tree/files.js";
import { fold } from "../../../../src/protocol/bus/index.js";
import { sessionParts } from "../../../support/engine/session-parts.js";

/** Job 1's parts with its INTENT lead sparked on a first message. */
async function sparked() {
  const s = sessionParts();
  await append(s, s.soup.root(ORCHESTRATOR).events);
  const lead = currentLead(s)!;
  await orchestrate(s, { kind: "observe", text: "enter INTENT" }, [
    { kind: "deliver", to: lead, content: { kind: "begin", text: "Lead INTENT." } },
  ]);
  return { s, lead };
}

describe("recover", () => {
  it("mails the recovery behind the message the instance has not read, and the log folds to that mailbox", async () => {
    const { s, lead } = await sparked();

    await recover(s, lead, "Your turn failed: try again.");

    const kinds = s.soup.mailbox(lead).map((m) => `${m.kind}: ${m.text}`);
    expect(kinds).toEqual(["begin: Lead INTENT.", "recovery: Your turn failed: try again."]);
    const logged = fold((await readText(s.jobWs.root, s.paths.bus)) ?? "", { fanOutCap: 4 });
    expect(logged.soup.mailbox(lead).map((m) => m.kind)).toEqual(["begin", "recovery"]);
    expect(s.log.seq).toBe(logged.seq);
  });

  it("to a thread that ended, or one no instance lives on, appends nothing", async () => {
    const { s, lead } = await sparked();
    await append(s, s.soup.terminate(lead.thread, "drop").events);
    const before = { ...s.log };
    const bus = await readText(s.jobWs.root, s.paths.bus);

    await recover(s, lead, "too late");
    await recover(s, "dispatch:nobody", "nobody is there");

    expect(s.log).toEqual(before);
    expect(await readText(s.jobWs.root, s.paths.bus)).toBe(bus);
  });
});

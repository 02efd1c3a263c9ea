// A turn built on the transcript as the engine stores it (JSON Lines, loaded back) sends what
// the previous turn sent, then more: the conversation prefix is unchanged, so it caches (the
// session handle resumes the prefix: docs/protocol.md#persistence).

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runTurn } from "../../../../src/agents/loop/run-turn.js";
import { loadTranscript } from "../../../../src/agents/transcript/load-transcript.js";
import { transcriptLines } from "../../../../src/agents/transcript/transcript-lines.js";
import { call, fakeModel, respond, text } from "../../../support/agents/fake-model.js";
import { useTempWorkspace, testRole, turnInput } from "../../../support/agents/turn-fixture.js";

let root: string;
useTempWorkspace((dir) => (root = dir));

it("resumes from the stored transcript with the previous requests as its prefix", async () => {
  await writeFile(join(root, "INTENT.md"), "# Intent\n");
  const role = testRole(["read_file", "ask_question"]);
  const first = fakeModel([
    respond([call("read_file", { path: "INTENT.md" }, "r1")]),
    respond([
      call("ask_question", { kind: "gate", text: "Approve?", artifact: "INTENT.md" }, "q1"),
    ]),
  ]);
  const turn1 = await runTurn(turnInput({ root, role, model: first }));
  expect(turn1.end.kind).toBe("asked");
  expect(turn1.stopReason).toBe("tool_use");

  const file = `${transcriptLines(1, turn1.messages, { usage: turn1.usage, stop: turn1.stopReason }).join("\n")}\n`;
  const loaded = loadTranscript(file);
  expect(loaded.turn).toBe(1);

  const second = fakeModel([respond([text("Thanks.")])]);
  const turn2 = await runTurn(
    turnInput({
      root,
      role,
      model: second,
      transcript: loaded.messages,
      incoming: { kind: "answer", text: "approved", answers: "q1" },
    }),
  );
  const previous = first.requests.at(-1)?.messages ?? [];
  const resumed = second.requests[0]?.messages ?? [];
  expect(resumed.slice(0, previous.length)).toEqual(previous);
  expect(resumed.slice(previous.length)).toEqual([
    turn1.messages.at(-1),
    { role: "user", content: [{ type: "tool_result", tool_use_id: "q1", content: "approved" }] },
  ]);
  expect(turn2.stopReason).toBe("end_turn");
});

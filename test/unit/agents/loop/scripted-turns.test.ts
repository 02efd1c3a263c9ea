// The loop against the project's scripted Model (strict: every request must answer the
// previous step's tool calls), across an ask and its answer in the next turn.

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { createScriptedModel } from "../../../../src/adapters/scripted/scripted-model.js";
import { runTurn } from "../../../../src/agents/loop/run-turn.js";
import { loadRole } from "../../../../src/agents/roles/load-role.js";
import type { Model } from "../../../../src/ports/model.js";
import { assertWellFormed } from "../../../support/agents/check-request.js";
import { useTempWorkspace, turnInput } from "../../../support/agents/turn-fixture.js";
import { call, expecting, recording, tools } from "../../../support/engine/script.js";

let root: string;
useTempWorkspace((dir) => (root = dir));

const instance = "intent-lead@state:intent:1";

it("plays an intent lead's draft, gate and approval through the scripted model", async () => {
  await writeFile(join(root, "REQUEST.md"), "Add a /health endpoint.\n");
  const scripted = createScriptedModel(
    recording({
      [instance]: [
        expecting(tools(call("read_file", { path: "REQUEST.md" }, "r1")), "Begin"),
        expecting(
          tools(
            call(
              "write_file",
              { path: "INTENT.md", content: "# Intent\n\nA /health endpoint.\n" },
              "w1",
            ),
          ),
          { toolResultFor: "read_file", lastUserIncludes: "/health" },
        ),
        expecting(
          tools(
            call(
              "ask_question",
              { kind: "gate", text: "Please review INTENT.md.", artifact: "INTENT.md" },
              "g1",
            ),
          ),
          { toolResultFor: "write_file" },
        ),
        expecting(
          tools(
            call(
              "finish",
              { outcome: "APPROVED_INTENT", reason: "The person approved INTENT.md." },
              "f1",
            ),
          ),
          { toolResultFor: "ask_question", lastUserIncludes: "approved" },
        ),
      ],
    }),
    { strict: true },
  );
  // Every request the scripted model sees is also checked against the API's shape rules.
  const model: Model = {
    complete(request, options) {
      assertWellFormed(request);
      return scripted.complete(request, options);
    },
  };
  const role = loadRole("intent-lead");
  const base = {
    root,
    role,
    model,
    instance: { agent: "intent-lead", thread: "state:intent:1" },
  };

  const turn1 = await runTurn(
    turnInput({ ...base, incoming: { kind: "begin", text: "Begin INTENT." } }),
  );
  expect(turn1.end).toEqual({
    kind: "asked",
    question: { kind: "gate", text: "Please review INTENT.md.", artifact: "INTENT.md" },
  });
  expect(turn1.modelCalls).toBe(3);

  const turn2 = await runTurn(
    turnInput({
      ...base,
      transcript: turn1.messages,
      incoming: { kind: "answer", text: "approved", answers: "g1" },
    }),
  );
  expect(turn2.end).toEqual({ kind: "finished" });
  expect(scripted.remaining()).toEqual({ [instance]: 0 });
});

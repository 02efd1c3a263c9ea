import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOTES, pendingAsk } from "../../../../src/agents/loop/index.js";
import { runTurn, type TurnResult } from "../../../../src/agents/loop/run-turn.js";
import type { IncomingMessage, RoleDefinition } from "../../../../src/agents/turn-contract.js";
import { loadRole } from "../../../../src/agents/roles/load-role.js";
import type { Message } from "../../../../src/ports/model.js";
import { fakeHost } from "../../../support/agents/fake-host.js";
import { USAGE, call, fakeModel, respond, text } from "../../../support/agents/fake-model.js";
import {
  resultsOf,
  useTempWorkspace,
  testRole,
  turnInput,
} from "../../../support/agents/turn-fixture.js";

const FILE_TOOLS = ["read_file", "write_file", "edit_file", "list_files", "search_files"];

let root: string;
useTempWorkspace((dir) => (root = dir));

/** A turn's opening message: the engine's note as the pending call's result, then what arrived. */
function resultThenText(toolUseId: string, note: string, arrived: string): Message {
  return {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: toolUseId, content: note },
      { type: "text", text: arrived },
    ],
  };
}

/** The instance's next turn: what it said so far, then `incoming`. */
function nextTurn(
  previous: TurnResult,
  incoming: IncomingMessage,
  input: Omit<Parameters<typeof turnInput>[0], "transcript" | "incoming">,
): Promise<TurnResult> {
  return runTurn(turnInput({ ...input, transcript: previous.messages, incoming }));
}

describe("runTurn: tool use round trip", () => {
  it("runs real file tools in the workspace and returns their results to the model", async () => {
    await writeFile(join(root, "notes.txt"), "alpha\nbeta\n");
    const model = fakeModel([
      respond([
        text("Let me look."),
        call("write_file", { path: "src/new.txt", content: "hello world\n" }, "w1"),
        call("read_file", { path: "notes.txt" }, "r1"),
      ]),
      respond([
        call("edit_file", { path: "src/new.txt", old_text: "world", new_text: "there" }, "e1"),
        call("list_files", { recursive: true }, "l1"),
        call("search_files", { pattern: "beta" }, "s1"),
      ]),
      respond([text("Done.")]),
    ]);
    const out = await runTurn(turnInput({ root, model, role: testRole(FILE_TOOLS) }));

    expect(out.end).toEqual({ kind: "stopped" });
    expect(await readFile(join(root, "src/new.txt"), "utf8")).toBe("hello there\n");
    const first = resultsOf(out.messages[2]);
    expect(first.get("w1")).toEqual({ content: "Created src/new.txt (12 bytes).", isError: false });
    expect(first.get("r1")).toEqual({ content: "alpha\nbeta\n", isError: false });
    const second = resultsOf(out.messages[4]);
    expect(second.get("e1")?.content).toBe("Edited src/new.txt at line 1.");
    expect(second.get("l1")?.content.split("\n").sort()).toEqual([
      "notes.txt",
      "src/",
      "src/new.txt",
    ]);
    expect(second.get("s1")?.content).toBe("notes.txt:2: beta");
    // opening, assistant, results, assistant, results, final assistant
    expect(out.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(out.messages[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: "Do the task." }],
    });
    expect(out.modelCalls).toBe(3);
    expect(out.toolCalls).toBe(5);
    expect(out.usage).toEqual({
      inputTokens: 3 * USAGE.inputTokens,
      outputTokens: 3 * USAGE.outputTokens,
      cacheReadTokens: 3 * USAGE.cacheReadTokens,
      cacheWriteTokens: 3 * USAGE.cacheWriteTokens,
    });
    expect(out.modelMs).toBeGreaterThanOrEqual(0);
  });

  it("sends the instance key, model, system, role tools and max tokens with every request", async () => {
    const model = fakeModel([respond([call("list_files", {}, "l1")]), respond([text("ok")])]);
    await runTurn(turnInput({ root, model, role: testRole(["list_files", "read_file"]) }));
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) {
      expect(request.instance).toBe("worker@dispatch:t1");
      expect(request.model).toBe("claude-test");
      expect(request.system).toBe("system prompt");
      expect(request.maxTokens).toBe(1024);
      expect(request.tools.map((tool) => tool.name)).toEqual(["list_files", "read_file"]);
    }
    // The second request extends the first: the prefix is the same, so it caches.
    expect(model.requests[1]?.messages.slice(0, 1)).toEqual(model.requests[0]?.messages);
  });
});

describe("runTurn: refusals come back as error results and the loop continues", () => {
  it("refuses a tool that is not in the role, naming the role's tools", async () => {
    const host = fakeHost();
    const model = fakeModel([
      respond([call("run_command", { argv: ["ls"] }, "x1")]),
      respond([text("I see.")]),
    ]);
    const out = await runTurn(
      turnInput({ root, model, host, role: testRole(["read_file", "list_files"]) }),
    );
    const result = resultsOf(out.messages[2]).get("x1");
    expect(result?.isError).toBe(true);
    expect(result?.content).toContain('"run_command" is not one of your tools');
    expect(result?.content).toContain("read_file, list_files");
    expect(host.calls).toEqual([]);
    expect(out.end).toEqual({ kind: "stopped" });
  });

  it("refuses an unknown tool name the same way", async () => {
    const model = fakeModel([respond([call("rm_rf", {}, "x1")]), respond([text("ok")])]);
    const out = await runTurn(turnInput({ root, model, role: testRole(["read_file"]) }));
    expect(resultsOf(out.messages[2]).get("x1")?.content).toContain(
      '"rm_rf" is not one of your tools',
    );
  });

  it("returns a bad input as an error result naming the field", async () => {
    const model = fakeModel([
      respond([
        call("read_file", { file: "notes.txt" }, "b1"),
        call("write_file", { path: "a.txt", content: 42 }, "b2"),
      ]),
      respond([text("oops")]),
    ]);
    const out = await runTurn(turnInput({ root, model, role: testRole(FILE_TOOLS) }));
    const results = resultsOf(out.messages[2]);
    expect(results.get("b1")?.isError).toBe(true);
    expect(results.get("b1")?.content).toMatch(/invalid input for read_file: .*path: /);
    expect(results.get("b1")?.content).toContain('"file"');
    expect(results.get("b2")?.content).toMatch(/invalid input for write_file: content: /);
  });

  it("turns a BoundaryError into an error result (reading ../x) and carries on", async () => {
    const model = fakeModel([
      respond([
        call("read_file", { path: "../x" }, "o1"),
        call("write_file", { path: ".git/config", content: "x" }, "o2"),
      ]),
      respond([call("write_file", { path: "inside.txt", content: "fine" }, "i1")]),
      respond([text("ok")]),
    ]);
    const out = await runTurn(turnInput({ root, model, role: testRole(FILE_TOOLS) }));
    const refused = resultsOf(out.messages[2]);
    expect(refused.get("o1")).toEqual({
      content: expect.stringContaining('cfa/boundary: refused "../x"') as string,
      isError: true,
    });
    expect(refused.get("o2")?.content).toContain('cfa/boundary: refused ".git/config"');
    expect(resultsOf(out.messages[4]).get("i1")?.isError).toBe(false);
    expect(await readFile(join(root, "inside.txt"), "utf8")).toBe("fine");
    expect(out.end).toEqual({ kind: "stopped" });
  });

  it("refuses writes to protected paths and in a read-only workspace", async () => {
    const model = fakeModel([
      respond([call("write_file", { path: ".cfa/outcome.json", content: "{}" }, "p1")]),
      respond([text("ok")]),
    ]);
    const out = await runTurn(turnInput({ root, model, role: testRole(FILE_TOOLS) }));
    expect(resultsOf(out.messages[2]).get("p1")?.isError).toBe(true);

    await writeFile(join(root, "a.txt"), "old");
    const readOnly = fakeModel([
      respond([
        call("write_file", { path: "a.txt", content: "new" }, "r1"),
        call("edit_file", { path: "a.txt", old_text: "old", new_text: "new" }, "r2"),
        call("read_file", { path: "a.txt" }, "r3"),
      ]),
      respond([text("ok")]),
    ]);
    const ro = await runTurn(
      turnInput({ root, model: readOnly, role: testRole(FILE_TOOLS), readOnly: true }),
    );
    const results = resultsOf(ro.messages[2]);
    expect(results.get("r1")?.content).toContain("read-only");
    expect(results.get("r2")?.isError).toBe(true);
    expect(results.get("r3")).toEqual({ content: "old", isError: false });
    expect(await readFile(join(root, "a.txt"), "utf8")).toBe("old");
  });

  it("returns a host refusal of ask_question to the model and continues", async () => {
    const host = fakeHost({
      ask: { ok: false, error: "cfa/engine: a gate needs a committed artifact" },
    });
    const model = fakeModel([
      respond([
        call("ask_question", { kind: "gate", text: "Approve?", artifact: "INTENT.md" }, "a1"),
      ]),
      respond([text("I will commit first.")]),
    ]);
    const out = await runTurn(turnInput({ root, model, host, role: testRole(["ask_question"]) }));
    expect(resultsOf(out.messages[2]).get("a1")).toEqual({
      content: "cfa/engine: a gate needs a committed artifact",
      isError: true,
    });
    expect(out.end).toEqual({ kind: "stopped" });
  });
});

describe("runTurn: ask_question ([ask-step])", () => {
  const question = { kind: "question" as const, text: "Which database?" };
  /** A turn that ends asking the question, by the call with this id. */
  const askingTurn = (id: string, role: RoleDefinition) =>
    runTurn(
      turnInput({ root, model: fakeModel([respond([call("ask_question", question, id)])]), role }),
    );

  it("ends the turn with `asked` when ask_question is called alone", async () => {
    const host = fakeHost();
    const model = fakeModel([
      respond([text("One question."), call("ask_question", question, "ask1")]),
    ]);
    const out = await runTurn(
      turnInput({ root, model, host, role: testRole(["ask_question", "read_file"]) }),
    );
    expect(out.end).toEqual({ kind: "asked", question });
    expect(host.calls).toEqual([{ method: "ask", args: [question] }]);
    expect(out.messages.at(-1)?.role).toBe("assistant");
    expect(pendingAsk(out.messages)?.id).toBe("ask1");
    expect(out.toolCalls).toBe(1);
  });

  it("answers the pending ask_question with the answer text on the next turn", async () => {
    const role = testRole(["ask_question", "read_file"]);
    const turn1 = await askingTurn("ask1", role);
    const transcript: Message[] = [...turn1.messages];

    const second = fakeModel([respond([text("Postgres it is.")])]);
    const turn2 = await nextTurn(
      turn1,
      { kind: "answer", text: "Postgres, please.", answers: "ask1" },
      { root, model: second, role },
    );
    expect(turn2.messages[0]).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "ask1", content: "Postgres, please." }],
    });
    // The request is the transcript plus the new messages, byte for byte.
    expect(second.requests[0]?.messages).toEqual([...transcript, turn2.messages[0]]);
    expect(turn2.end).toEqual({ kind: "stopped" });
  });

  it("marks the ask still open when something else arrives first, then delivers that text", async () => {
    const role = testRole(["ask_question"]);
    const turn1 = await askingTurn("ask1", role);
    const model = fakeModel([respond([text("Noted.")])]);
    const turn2 = await nextTurn(
      turn1,
      { kind: "intervention", text: "Use SQLite for now." },
      { root, model, role },
    );
    expect(turn2.messages[0]).toEqual(
      resultThenText("ask1", NOTES.stillOpen, "Use SQLite for now."),
    );
  });

  it("does not take an answer to another escalation as this call's result", async () => {
    const role = testRole(["ask_question"]);
    const turn1 = await askingTurn("ask2", role);
    const turn2 = await nextTurn(
      turn1,
      { kind: "answer", text: "Answer to an older question.", answers: "ask1" },
      { root, model: fakeModel([respond([text("ok")])]), role },
    );
    expect(resultsOf(turn2.messages[0]).get("ask2")?.content).toBe(NOTES.stillOpen);
    expect(turn2.messages[0]?.content.at(-1)).toEqual({
      type: "text",
      text: "Answer to an older question.",
    });
  });

  it("refuses ask_question together with another call: both get an error and the loop continues", async () => {
    const host = fakeHost();
    await writeFile(join(root, "a.txt"), "a");
    const model = fakeModel([
      respond([call("read_file", { path: "a.txt" }, "c1"), call("ask_question", question, "c2")]),
      respond([call("ask_question", question, "c3")]),
    ]);
    const out = await runTurn(
      turnInput({ root, model, host, role: testRole(["ask_question", "read_file"]) }),
    );
    const results = resultsOf(out.messages[2]);
    for (const id of ["c1", "c2"]) {
      expect(results.get(id)?.isError).toBe(true);
      expect(results.get(id)?.content).toContain("call ask_question and finish alone");
    }
    expect(host.calls).toEqual([{ method: "ask", args: [question] }]);
    expect(out.end).toEqual({ kind: "asked", question });
  });
});

describe("runTurn: finish writes the outcome record", () => {
  it("ends the turn with `finished`, and the next turn answers the pending finish with `outcome recorded`", async () => {
    const host = fakeHost();
    const role = loadRole("intent-lead");
    const record = { outcome: "APPROVED_INTENT", reason: "The person approved INTENT.md." };
    const turn1 = await runTurn(
      turnInput({ root, role, host, model: fakeModel([respond([call("finish", record, "f1")])]) }),
    );
    expect(turn1.end).toEqual({ kind: "finished" });
    expect(host.calls).toEqual([{ method: "finish", args: [record] }]);

    const turn2 = await nextTurn(
      turn1,
      { kind: "recovery", text: "Are you done?" },
      { root, role, model: fakeModel([respond([text("Yes.")])]) },
    );
    expect(turn2.messages[0]).toEqual(resultThenText("f1", NOTES.outcomeRecorded, "Are you done?"));
  });

  it("returns a refused outcome to the model and continues", async () => {
    const host = fakeHost({
      finish: { ok: false, error: "cfa/engine: REPLAN is not permitted in INTENT" },
    });
    const model = fakeModel([
      respond([call("finish", { outcome: "REPLAN", reason: "x" }, "f1")]),
      respond([call("finish", { outcome: "FAILURE", reason: "x" }, "f2")]),
      respond([text("I will ask instead.")]),
    ]);
    const out = await runTurn(turnInput({ root, model, host, role: testRole(["finish"]) }));
    expect(resultsOf(out.messages[2]).get("f1")).toEqual({
      content: "cfa/engine: REPLAN is not permitted in INTENT",
      isError: true,
    });
    // FAILURE is the orchestrator's action: refused by the schema before the host sees it.
    expect(resultsOf(out.messages[4]).get("f2")?.content).toMatch(
      /invalid input for finish: outcome: /,
    );
    expect(host.calls).toHaveLength(1);
    expect(out.end).toEqual({ kind: "stopped" });
  });
});

describe("runTurn: the tool-call cap", () => {
  it("ends with `capped` without running the over-cap response, and the next turn answers its calls", async () => {
    await writeFile(join(root, "a.txt"), "a");
    const model = fakeModel([
      respond([
        call("read_file", { path: "a.txt" }, "k1"),
        call("read_file", { path: "a.txt" }, "k2"),
      ]),
      respond([
        call("write_file", { path: "b.txt", content: "b" }, "k3"),
        call("read_file", { path: "a.txt" }, "k4"),
      ]),
    ]);
    const role = testRole(FILE_TOOLS);
    const out = await runTurn(turnInput({ root, model, role, toolCallsPerTurn: 3 }));
    expect(out.end).toEqual({ kind: "capped" });
    expect(out.toolCalls).toBe(2);
    expect(out.modelCalls).toBe(2);
    expect(out.messages.at(-1)?.role).toBe("assistant");
    await expect(readFile(join(root, "b.txt"), "utf8")).rejects.toThrow();

    const next = fakeModel([respond([text("Resuming.")])]);
    const turn2 = await nextTurn(
      out,
      { kind: "recovery", text: "Continue." },
      { root, model: next, role },
    );
    expect(turn2.messages[0]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "k3", content: NOTES.capped, is_error: true },
        { type: "tool_result", tool_use_id: "k4", content: NOTES.capped, is_error: true },
        { type: "text", text: "Continue." },
      ],
    });
  });

  it("still runs a lone finish past the cap, since it ends the turn", async () => {
    const model = fakeModel([
      respond([call("list_files", {}, "l1")]),
      respond([call("finish", { outcome: "APPROVED_PLAN", reason: "approved" }, "f1")]),
    ]);
    const out = await runTurn(
      turnInput({ root, model, role: testRole(["list_files", "finish"]), toolCallsPerTurn: 1 }),
    );
    expect(out.end).toEqual({ kind: "finished" });
    expect(out.toolCalls).toBe(2);
  });

  it("runs a lone finish past the cap only once: a model repeating a refused one is capped", async () => {
    // FAILURE is the orchestrator's: the finish tool refuses it, which does not end the turn.
    const refused = (id: string) =>
      respond([call("finish", { outcome: "FAILURE", reason: "give up" }, id)]);
    const model = fakeModel([refused("f1"), refused("f2"), refused("f3"), refused("f4")]);
    const out = await runTurn(
      turnInput({ root, model, role: testRole(["finish"]), toolCallsPerTurn: 2 }),
    );
    expect(out.end).toEqual({ kind: "capped" });
    expect(out.toolCalls).toBe(3);
    expect(out.modelCalls).toBe(4);
  });
});

describe("runTurn: stop reasons and edge cases", () => {
  it("retries a response cut at the output budget with twice the budget, keeping none of it, rather than failing the state", async () => {
    const cut = respond([text("Writing"), call("write_file", { path: "x" }, "m1")], "max_tokens");
    const model = fakeModel([
      cut,
      cut,
      respond([call("write_file", { path: "x", content: "whole" }, "m2")]),
      respond([text("Done.")]),
    ]);
    const out = await runTurn(turnInput({ root, model, role: testRole(FILE_TOOLS) }));
    expect(out.end).toEqual({ kind: "stopped" });
    // The same request three times, with 1,024, then 2,048, then 4,096 output tokens.
    expect(model.requests.map((r) => r.maxTokens)).toEqual([1024, 2048, 4096, 4096]);
    expect(model.requests[1]!.messages).toEqual(model.requests[0]!.messages);
    expect(model.requests[2]!.messages).toEqual(model.requests[0]!.messages);
    // The cut responses never joined the conversation; the whole one ran.
    expect(JSON.stringify(out.messages)).not.toContain('"m1"');
    expect(await readFile(join(root, "x"), "utf8")).toBe("whole");
    expect(out.modelCalls).toBe(4); // all four were paid for
  });

  it("fails the turn, saying so, when a response is cut at the model's own output limit", async () => {
    const cut = respond([call("write_file", { path: "x" }, "m1")], "max_tokens");
    const model = {
      ...fakeModel([cut, cut]),
      limits: () => ({ contextWindow: 200_000, maxOutput: 2048 }),
    };
    await expect(runTurn(turnInput({ root, model, role: testRole(FILE_TOOLS) }))).rejects.toThrow(
      /did not fit 2048 output tokens, the most it can write/,
    );
  });

  it("fails the turn with a ModelRefusalError that names the refusal", async () => {
    const model = fakeModel([
      {
        ...respond([text("I can't help with that.")], "refusal"),
        refusal: { category: "cyber", explanation: "could enable malware" },
      },
    ]);
    const error = await runTurn(turnInput({ root, model, role: testRole(FILE_TOOLS) })).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.name).toBe("ModelRefusalError");
    expect(error?.message).toContain("refused to continue");
    expect(error?.message).toContain("category cyber: could enable malware");
  });

  it("asks with the role's effort and cache lifetime: leads keep their prefix an hour, workers five minutes", async () => {
    const lead = fakeModel([respond([text("ok")])]);
    await runTurn(
      turnInput({ root, model: lead, role: { ...testRole(FILE_TOOLS), name: "intent-lead" } }),
    );
    expect(lead.requests[0]).toMatchObject({ effort: "high", cacheLifetime: "1h" });
    const verifier = fakeModel([respond([text("ok")])]);
    await runTurn(
      turnInput({ root, model: verifier, role: { ...testRole(FILE_TOOLS), name: "verifier" } }),
    );
    expect(verifier.requests[0]).toMatchObject({ effort: "medium", cacheLifetime: "5m" });
  });

  it("does not append an empty response, and the next turn's message joins the trailing user message", async () => {
    const role = testRole(FILE_TOOLS);
    const turn1 = await runTurn(
      turnInput({ root, role, model: fakeModel([respond([text("  ")])]) }),
    );
    expect(turn1.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Do the task." }] },
    ]);
    expect(turn1.end).toEqual({ kind: "stopped" });

    const model = fakeModel([respond([text("ok")])]);
    const turn2 = await nextTurn(turn1, { kind: "reply", text: "More." }, { root, role, model });
    // Stored apart (the transcript stays append-only), sent merged (roles alternate).
    expect(turn2.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "More." }] });
    expect(model.requests[0]?.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Do the task." },
          { type: "text", text: "More." },
        ],
      },
    ]);
  });

  it("honours an aborted signal", async () => {
    const controller = new AbortController();
    const model = fakeModel([
      () => {
        controller.abort();
        return respond([call("list_files", {}, "l1")]);
      },
    ]);
    await expect(
      runTurn(turnInput({ root, model, role: testRole(FILE_TOOLS), signal: controller.signal })),
    ).rejects.toThrow(/abort/i);
  });

  it("keeps every request well formed across many turns built on the transcript", async () => {
    await mkdir(join(root, "d"));
    const role = testRole([...FILE_TOOLS, "ask_question", "finish"]);
    let transcript: Message[] = [];
    const turns: {
      steps: Parameters<typeof fakeModel>[0];
      incoming?: Parameters<typeof turnInput>[0]["incoming"];
      cap?: number;
    }[] = [
      {
        steps: [
          respond([call("list_files", {}, "a1")]),
          respond([call("ask_question", { kind: "question", text: "?" }, "a2")]),
        ],
      },
      {
        incoming: { kind: "answer", text: "yes", answers: "a2" },
        steps: [
          respond([
            call("read_file", { path: "nope" }, "a3"),
            call("finish", { outcome: "WITHDRAW", reason: "r" }, "a4"),
          ]),
          respond([text("")]),
        ],
      },
      { steps: [respond([call("list_files", {}, "a5"), call("list_files", {}, "a6")])], cap: 1 },
      { steps: [respond([call("finish", { outcome: "WITHDRAW", reason: "r" }, "a7")])] },
      {
        steps: [
          respond([call("write_file", { path: "d/x" }, "a8")], "max_tokens"),
          respond([call("write_file", { path: "d/x", content: "x" }, "a9")]),
          respond([text("written")]),
        ],
      },
      { steps: [respond([text("done")])] },
    ];
    for (const [index, turn] of turns.entries()) {
      const model = fakeModel(turn.steps);
      const out = await runTurn(
        turnInput({
          root,
          role,
          model,
          transcript,
          incoming: turn.incoming ?? { kind: "task", text: `message ${index}` },
          ...(turn.cap === undefined ? {} : { toolCallsPerTurn: turn.cap }),
        }),
      );
      expect(model.remaining()).toBe(0);
      transcript = [...transcript, ...out.messages];
    }
    expect(transcript.length).toBeGreaterThan(8);
  });
});

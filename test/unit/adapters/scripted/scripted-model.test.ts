import { describe, expect, it } from "vitest";
import { createRecordingModel } from "../../../../src/adapters/scripted/recording-model.js";
import { parseRecording, RecordingError } from "../../../../src/adapters/scripted/recording.js";
import { ScriptMismatchError } from "../../../../src/adapters/scripted/script-mismatch-error.js";
import { createScriptedModel } from "../../../../src/adapters/scripted/scripted-model.js";
import { call, respond, say as scriptSay } from "../../../support/engine/script.js";
import type { Message, Model, ModelRequest } from "../../../../src/ports/model.js";
import { rejectionOf } from "../../../support/rejection-of.js";

const usage = (n: number) => ({
  inputTokens: n,
  outputTokens: n,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});
const say = (text: string, n = 1) => scriptSay(text, usage(n));
const callTool = (id: string, name = "read_file") =>
  respond([call(name, { path: id }, id)], usage(1));

const request = (
  instance: string,
  messages: Message[],
  model = "claude-sonnet-5-5",
): ModelRequest => ({
  instance,
  model,
  system: "",
  tools: [],
  messages,
  maxTokens: 1000,
});
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

/** The ScriptMismatchError the model answers this request with. */
const mismatch = (model: Model, sent: ModelRequest) =>
  rejectionOf(model.complete(sent), ScriptMismatchError);

describe("the scripted model", () => {
  it("plays each instance's steps in order, whatever the interleaving", async () => {
    const recording = {
      version: 1,
      instances: {
        "lead@job": [say("L0"), say("L1"), say("L2")],
        "worker@dispatch:a": [say("W0"), say("W1")],
      },
    };
    const text = async (m: Model, instance: string) => {
      const response = await m.complete(request(instance, [user("go")]));
      return response.content[0]?.type === "text" ? response.content[0].text : "?";
    };

    const serial = createScriptedModel(recording);
    const order = ["worker@dispatch:a", "lead@job", "lead@job", "worker@dispatch:a", "lead@job"];
    const got: string[] = [];
    for (const instance of order) got.push(await text(serial, instance));
    expect(got).toEqual(["W0", "L0", "L1", "W1", "L2"]);
    expect(serial.remaining()).toEqual({ "lead@job": 0, "worker@dispatch:a": 0 });

    const parallel = createScriptedModel(recording);
    const [lead, worker] = await Promise.all([
      (async () => [await text(parallel, "lead@job"), await text(parallel, "lead@job")])(),
      (async () => [
        await text(parallel, "worker@dispatch:a"),
        await text(parallel, "worker@dispatch:a"),
      ])(),
    ]);
    expect(lead).toEqual(["L0", "L1"]);
    expect(worker).toEqual(["W0", "W1"]);
    expect(parallel.remaining()).toEqual({ "lead@job": 1, "worker@dispatch:a": 0 });
  });

  it("reports usage from the recording as if real, under the requested model", async () => {
    const model = createScriptedModel({ version: 1, instances: { "lead@job": [say("hi", 42)] } });
    const response = await model.complete(request("lead@job", [user("go")], "claude-opus-5-5"));
    expect(response).toEqual({
      content: [{ type: "text", text: "hi" }],
      stopReason: "end_turn",
      usage: usage(42),
      model: "claude-opus-5-5",
    });
  });

  it("names the instance, the step and what differed when an expectation fails, and does not advance", async () => {
    const model = createScriptedModel({
      version: 1,
      instances: {
        "lead@job": [
          say("first"),
          { expect: { lastUserIncludes: "APPROVED", model: "claude-opus-5-5" }, ...say("second") },
        ],
      },
    });
    await model.complete(request("lead@job", [user("go")]));
    const error = await mismatch(
      model,
      request("lead@job", [user("The reviewer asked for\nchanges to section 2.")]),
    );
    expect(error.name).toBe("ScriptMismatchError");
    expect(error.instance).toBe("lead@job");
    expect(error.step).toBe(1);
    expect(error.differences).toEqual([
      "expected model claude-opus-5-5, got claude-sonnet-5-5",
      'expected the last user message to include "APPROVED"',
    ]);
    expect(error.lastUser).toBe("The reviewer asked for changes to section 2.");
    expect(error.message).toMatch(/^cfa\/scripted: lead@job step 1: expected model/);
    expect(model.remaining()).toEqual({ "lead@job": 1 });

    const ok = await model.complete(request("lead@job", [user("APPROVED")], "claude-opus-5-5"));
    expect(ok.content).toEqual([{ type: "text", text: "second" }]);
  });

  it("checks which tool's result the request carries", async () => {
    const model = createScriptedModel({
      version: 1,
      instances: {
        "lead@job": [callTool("t1"), { expect: { toolResultFor: "write_file" }, ...say("x") }],
      },
    });
    const first = await model.complete(request("lead@job", [user("go")]));
    const messages: Message[] = [
      user("go"),
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "A" }] },
    ];
    const error = await mismatch(model, request("lead@job", messages));
    expect(error.differences).toEqual(["expected a tool result for write_file, got read_file"]);
    expect(error.lastUser).toBe("A");
  });

  it("names the instance and the step when an instance has no steps left", async () => {
    const model = createScriptedModel({ version: 1, instances: { "lead@job": [say("only")] } });
    await model.complete(request("lead@job", [user("go")]));
    const exhausted = await mismatch(model, request("lead@job", [user("again")]));
    expect(exhausted.instance).toBe("lead@job");
    expect(exhausted.step).toBe(1);
    expect(exhausted.message).toContain("no steps left (the recording has 1 for this instance)");

    const unknown = await mismatch(model, request("proxy@escalation:1", [user("?")]));
    expect(unknown.instance).toBe("proxy@escalation:1");
    expect(unknown.step).toBe(0);
    expect(unknown.message).toContain("the recording has no steps for this instance");
  });

  it("in strict mode, requires a result for each tool call of the previous step", async () => {
    const script = {
      version: 1,
      instances: { "lead@job": [callTool("t1"), say("done")] },
    };
    const afterCall = (results: Message["content"]): Message[] => [
      user("go"),
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "read_file", input: {} }],
      },
      { role: "user", content: results } as Message,
    ];

    const strict = createScriptedModel(script, { strict: true });
    await strict.complete(request("lead@job", [user("go")]));
    const error = await mismatch(
      strict,
      request("lead@job", afterCall([{ type: "tool_result", tool_use_id: "t9", content: "" }])),
    );
    expect(error.differences).toEqual([
      "no tool result for t1",
      "tool results for ids the previous step did not ask: t9",
    ]);
    await expect(
      strict.complete(
        request("lead@job", afterCall([{ type: "tool_result", tool_use_id: "t1", content: "" }])),
      ),
    ).resolves.toMatchObject({ stopReason: "end_turn" });

    const lenient = createScriptedModel(script);
    await lenient.complete(request("lead@job", [user("go")]));
    await expect(
      lenient.complete(request("lead@job", [user("no results at all")])),
    ).resolves.toMatchObject({
      stopReason: "end_turn",
    });
  });

  it("honours an aborted signal", async () => {
    const model = createScriptedModel({ version: 1, instances: { "lead@job": [say("x")] } });
    const controller = new AbortController();
    controller.abort();
    await expect(
      model.complete(request("lead@job", [user("go")]), { signal: controller.signal }),
    ).rejects.toThrow();
    expect(model.remaining()).toEqual({ "lead@job": 1 });
  });
});

describe("recordings", () => {
  function recordingErrorOf(input: unknown): RecordingError {
    let error: unknown;
    try {
      createScriptedModel(input, { source: "recordings/demo.json" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RecordingError);
    return error as RecordingError;
  }

  it("rejects a bad recording with the path inside the JSON", () => {
    const badStop = recordingErrorOf({
      version: 1,
      instances: {
        "lead@job": [say("ok"), { response: { ...say("x").response, stopReason: "done" } }],
      },
    });
    expect(badStop.name).toBe("RecordingError");
    expect(badStop.path).toBe('$.instances["lead@job"][1].response.stopReason');
    expect(badStop.message).toMatch(
      /^cfa\/scripted: bad recording recordings\/demo\.json: at \$\.instances\["lead@job"\]\[1\]\.response\.stopReason: /,
    );

    expect(recordingErrorOf({ version: 2, instances: {} }).path).toBe("$.version");
    expect(
      recordingErrorOf({
        version: 1,
        instances: {
          "lead@job": [{ response: { ...say("x").response, usage: { inputTokens: -1 } } }],
        },
      }).path,
    ).toMatch(/^\$\.instances\["lead@job"\]\[0\]\.response\.usage\./);
    expect(recordingErrorOf({ version: 1, instances: { nobody: [] } }).message).toContain(
      "agent@thread",
    );
    expect(
      recordingErrorOf({ version: 1, instances: { "lead@job": [{ ...say("x"), extra: 1 }] } }).path,
    ).toBe('$.instances["lead@job"][0]');
    expect(() => parseRecording("{not json", "r.json")).toThrow(
      /bad recording r\.json: at \$: not JSON/,
    );
  });
});

describe("the recording model", () => {
  it("records real responses per instance in a format the scripted model replays exactly", async () => {
    const real = createScriptedModel({
      version: 1,
      instances: {
        "lead@job": [callTool("t1"), say("INTENT.md drafted", 7)],
        "worker@dispatch:a": [say("done", 3)],
      },
    });
    const recorder = createRecordingModel(real);

    const first = await recorder.complete(
      request("lead@job", [user("Draft INTENT.md for issue #7")]),
    );
    await recorder.complete(request("worker@dispatch:a", [user("Fix the lint")]));
    const leadMessages: Message[] = [
      user("Draft INTENT.md for issue #7"),
      { role: "assistant", content: first.content },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: "issue text" }],
      },
    ];
    await recorder.complete(request("lead@job", leadMessages));

    const recording = recorder.recording();
    expect(parseRecording(JSON.parse(JSON.stringify(recording)))).toEqual(recording);
    expect(recording.instances["lead@job"]?.map((step) => step.expect)).toEqual([
      { model: "claude-sonnet-5-5", lastUserIncludes: "Draft INTENT.md for issue #7" },
      { model: "claude-sonnet-5-5", toolResultFor: "read_file" },
    ]);

    const replay = createScriptedModel(recording, { strict: true });
    await replay.complete(request("worker@dispatch:a", [user("Fix the lint")]));
    await replay.complete(request("lead@job", [user("Draft INTENT.md for issue #7")]));
    const last = await replay.complete(request("lead@job", leadMessages));
    expect(last).toEqual({
      content: [{ type: "text", text: "INTENT.md drafted" }],
      stopReason: "end_turn",
      usage: usage(7),
      model: "claude-sonnet-5-5",
    });
    expect(replay.remaining()).toEqual({ "lead@job": 0, "worker@dispatch:a": 0 });
  });
});

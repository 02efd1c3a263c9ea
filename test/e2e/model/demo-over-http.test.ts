// Requests the Messages API accepts, turn after turn: the demo job (recordings/demo.json) runs to
// DONE through `cfa` with the real Anthropic adapter and SDK talking HTTP (ANTHROPIC_BASE_URL) to a
// local fake Messages API that answers the recorded job more strictly than the recording — signed
// thinking blocks, `citations: null`, tool inputs with unsorted keys — and checks every request it
// receives (test/support/fake-messages-api/conformance.ts). Once cleanly, and once under fault
// storms longer than the SDK's own retry cycle (~7 s): 6×529 at a lead, 6 connection resets at a
// worker, 6×500 at a verifier, ridden out by the adapter's patience (its sleep injected: no test
// waits), with no retry budget spent and no step paid twice.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDemoOverHttp, type DemoRun } from "../../support/fake-messages-api/demo-run.js";
import type { Fault } from "../../support/fake-messages-api/recorded-job.js";
import { bound } from "../../support/time-bound.js";

type Run = DemoRun;
const runDemo = runDemoOverHttp;
const cleanup = async (run: Run | undefined) => run?.cleanup();

describe("the demo job over HTTP with the real adapter", () => {
  let run: Run;
  beforeAll(async () => {
    run = await runDemo();
  }, bound(120_000));
  afterAll(() => cleanup(run));

  it("runs to DONE through `cfa`", () => {
    expect(run.err).toBe("");
    expect(run.codes.every((code) => code === 0)).toBe(true);
    expect(run.state.state).toBe("DONE");
    expect(run.api.unplayed()).toEqual({});
  });

  it("sends requests the API accepts: every rule of conformance.ts held on every request", () => {
    expect(run.api.conformance.problems).toEqual([]);
    expect(run.server.requests.length).toBe(run.steps);
  });

  it("sends every earlier assistant turn back exactly as served: signed thinking, unsorted tool inputs", () => {
    const later = run.server.requests.filter((r) => r.raw.includes('"role":"assistant"'));
    expect(later.length).toBeGreaterThan(20);
    for (const request of later) {
      expect(request.raw).toMatch(
        /"type":"thinking","thinking":"Working on [^"]+","signature":"sig-/,
      );
    }
    // Redacted thinking goes back with its encrypted data, next to the thinking it followed.
    expect(
      later.some((r) =>
        /"signature":"sig-[^"]+"\},\{"type":"redacted_thinking","data":"enc-[0-9a-f]+"\}/.test(
          r.raw,
        ),
      ),
    ).toBe(true);
    // Text blocks keep the field the API put on them.
    expect(later.some((r) => /"type":"text","text":"[^"]*","citations":null/.test(r.raw))).toBe(
      true,
    );
    // An editor input served as {path, file_text, command} in reverse alphabetical order comes
    // back so.
    expect(
      run.server.requests.some((r) => /"input":\{"path":"[^"]+","file_text":"/.test(r.raw)),
    ).toBe(true);
  });

  it("pays for each step once", () => {
    expect(new Set(run.api.charged).size).toBe(run.api.charged.length);
    expect(run.api.charged.length).toBe(run.steps);
  });

  // The demo was recorded with the `bash-editor` tools (src/records/tool-sets.ts): what each
  // role's requests carry on the wire, as the Messages API takes them.
  it("gives workers and verifiers Anthropic's bash and text editor tools, by their types", () => {
    const byRole = requestsByRole(run);
    for (const role of ["worker", "verifier"]) {
      expect(byRole.get(role)!.length).toBeGreaterThan(3);
      for (const body of byRole.get(role)!) {
        const tools = body.tools as { type?: string; name: string; input_schema?: unknown }[];
        expect(tools.slice(0, 2).map(({ type, name }) => ({ type, name }))).toEqual([
          { type: "text_editor_20250728", name: "str_replace_based_edit_tool" },
          { type: "bash_20250124", name: "bash" },
        ]);
        // Their schemas are the model's: none of ours is sent for them.
        expect(tools[0]).not.toHaveProperty("input_schema");
        expect(tools[1]).not.toHaveProperty("input_schema");
        expect(tools.map((t) => t.name)).not.toContain("run_command");
      }
    }
  });

  it("carries the repository's AGENTS.md, read from main, as data at the head of every role's system prompt", () => {
    const agents = (run.demo.files["AGENTS.md"] ?? "").trim();
    expect(agents.length).toBeGreaterThan(100);
    const byRole = requestsByRole(run);
    expect([...byRole.keys()].sort()).toEqual([
      "intent-lead",
      "project-lead",
      "verifier",
      "worker",
    ]);
    const firsts = new Set<string>();
    for (const bodies of byRole.values()) {
      for (const body of bodies) {
        const system = body.system as { text: string }[];
        expect(system[0]!.text).toContain(`<untrusted-data source="AGENTS.md">\n${agents}\n`);
        firsts.add(system[0]!.text);
      }
    }
    // The same bytes for every role: one block the cache keeps.
    expect(firsts.size).toBe(1);
  });
});

/** The requests' bodies by the role that sent them (told by its first message). */
function requestsByRole(run: Run): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  for (const request of run.server.requests) {
    const body = request.body!;
    const first = JSON.stringify((body.messages as { content: unknown }[])[0]);
    const role = first.includes("You lead the INTENT phase")
      ? "intent-lead"
      : first.includes("You lead the")
        ? "project-lead"
        : first.includes("Your task from")
          ? "worker"
          : first.includes("Verify task")
            ? "verifier"
            : "other";
    out.set(role, [...(out.get(role) ?? []), body]);
  }
  return out;
}

describe("the demo job over HTTP under fault storms longer than the SDK's own retries", () => {
  let run: Run;
  const faults: Fault[] = [
    { instance: "intent-lead@state:intent:1", step: 1, kind: "overloaded", times: 6 },
    { instance: "worker@dispatch:camel-case", step: 1, kind: "reset", times: 6 },
    { instance: "verifier@verify:truncate-1", step: 0, kind: "server", times: 6 },
  ];
  beforeAll(async () => {
    run = await runDemo(faults);
  }, bound(120_000));
  afterAll(() => cleanup(run));

  it("still runs to DONE, every storm ridden out by the adapter", () => {
    // The only thing on stderr: one warning per wait, naming the fault and the next attempt.
    const lines = run.err.trim().split("\n");
    expect(lines).toHaveLength(18);
    for (const line of lines) {
      expect(line).toMatch(
        /^cfa: warning: cfa\/model: the Anthropic API at http:\/\/127\.0\.0\.1:\d+ failed for (intent-lead@state:intent:1 \(529 overloaded_error\)|worker@dispatch:camel-case \(APIConnectionError: Connection error\.\)|verifier@verify:truncate-1 \(500 api_error\)); attempt \d in \d+ s$/,
      );
    }
    expect(run.state.state).toBe("DONE");
    expect(run.api.faults).toHaveLength(18);
    expect(run.api.conformance.problems).toEqual([]);
    // 18 waits, the longest a minute: far past the SDK's ~7 s cycle, in no time at all.
    expect(run.waits).toHaveLength(18);
    expect(run.waits.reduce((a, b) => a + b, 0)).toBeGreaterThan(3 * 60_000);
  });

  it("spends no retry budget on them: no state-level failure was recorded", () => {
    expect(run.state.failures).toBe(0);
    expect(run.state.history.filter((h) => h.action === "FAILURE")).toEqual([]);
    expect(run.out).not.toMatch(/turn failed|State-level failure/);
  });

  it("pays for each step once, faults never charged", () => {
    expect(new Set(run.api.charged).size).toBe(run.api.charged.length);
    expect(run.api.charged.length).toBe(run.steps);
    expect(run.server.requests.length).toBe(run.steps + 18);
  });
});

// The fake Messages API answering a recorded job (the `cfa run --record` format,
// recordings/README.md): each request is matched to the recorded instance it belongs to and
// answered with that instance's next step — as the real API would send it, which is stricter
// than the recording: every response opens with a thinking block carrying a signature (some
// with a redacted one after it), text
// blocks carry `citations: null`, and tool inputs come with their keys in reverse
// alphabetical order, so anything that re-sorts, drops or rewrites an assistant turn shows up
// in the next request (conformance.ts). It also keeps the bill: every 200 answer is a charge,
// so a test can prove no step was paid twice; and it can throw fault storms at chosen steps.

import { Conformance } from "./conformance.js";
import type { ApiReply, ApiRequest } from "./server.js";

type Block = Record<string, unknown> & { type: string };
interface Step {
  expect?: { lastUserIncludes?: string; toolResultFor?: string; model?: string };
  response: {
    content: Block[];
    stopReason: string;
    usage: {
      inputTokens: number;
      outputTokens: number;
      cacheReadTokens: number;
      cacheWriteTokens: number;
      cacheWrite1hTokens?: number;
    };
  };
}
interface Recording {
  instances: Record<string, Step[]>;
}

export type FaultKind = "overloaded" | "server" | "reset";

export interface Fault {
  instance: string;
  step: number;
  kind: FaultKind;
  times: number;
}

export interface RecordedJobApi {
  respond(request: ApiRequest): ApiReply;
  conformance: Conformance;
  /** `instance#step` of every answer charged, in order. */
  charged: string[];
  /** Faults served, in order. */
  faults: string[];
  /** Steps of each instance never answered. */
  unplayed(): Record<string, number>;
}

export interface RecordedJobOptions {
  faults?: Fault[];
  /**
   * false: answer with each step's content as written, with none of the API's extras (the
   * thinking blocks, `citations: null`, reordered keys): for an authored script whose answers
   * go into a recording (scripts/make-demo.ts). Default true.
   */
  asTheApi?: boolean;
  /** The usage to bill for an answer, from the request; default the step's own. */
  usage?: (body: Record<string, unknown>, content: readonly Block[]) => Step["response"]["usage"];
  /**
   * An instance's conversation may be taken again from an earlier position: its process
   * was killed and another takes its turn again (what was served after that position is
   * forgotten, conformance.ts rewind). Off, such a request is a dropped turn: refused.
   */
  redos?: boolean;
  /**
   * The job began as `cfa replay` of this recording (stopped with --until) and goes on
   * here: an instance's first request carries the steps the replay played, as the
   * recording holds them (a replay serves them without the API's additions), and they
   * count as served.
   */
  continuesReplay?: boolean;
}

export function recordedJobApi(
  recording: Recording,
  options: RecordedJobOptions = {},
): RecordedJobApi {
  const seeded = new Set<string>();
  const conformance = new Conformance();
  const charged: string[] = [];
  const faultsServed: string[] = [];
  const claimed = new Map<string, string>(); // conversation key → instance
  const hints = instanceHints(recording);
  const furthest = new Map<string, number>();
  let messageNumber = 0;

  const respond = (request: ApiRequest): ApiReply => {
    if (
      request.method !== "POST" ||
      !request.path.startsWith("/v1/messages") ||
      request.body === null
    ) {
      return {
        kind: "error",
        status: 404,
        type: "not_found_error",
        message: `no route ${request.path}`,
      };
    }
    const body = request.body;
    const messages = (body.messages ?? []) as { role: string; content: Block[] }[];
    // Markers move from request to request; what a conversation starts with does not.
    const key = JSON.stringify([body.system, withoutMarkers(messages[0]?.content ?? null)]);
    let instance = claimed.get(key);
    if (instance === undefined) {
      instance = claim(recording, claimed, hints, messages);
      if (instance === undefined) {
        const problem = `no recorded instance starts with ${text(messages[0]).slice(0, 100)}`;
        conformance.problems.push(problem);
        return { kind: "error", status: 400, type: "invalid_request_error", message: problem };
      }
      claimed.set(key, instance);
    }
    const step = messages.filter((m) => m.role === "assistant").length;
    if (options.continuesReplay === true && !seeded.has(instance)) {
      seeded.add(instance);
      for (const played of recording.instances[instance]?.slice(0, step) ?? []) {
        if (played.response.stopReason !== "max_tokens")
          conformance.recordServed(instance, played.response.content);
      }
      furthest.set(instance, step);
    }

    const fault = options.faults?.find((f) => f.instance === instance && f.step === step);
    if (fault !== undefined) {
      const served = faultsServed.filter((f) => f === `${instance}#${step}`).length;
      if (served < fault.times) {
        faultsServed.push(`${instance}#${step}`);
        if (fault.kind === "reset") return { kind: "reset" };
        return fault.kind === "overloaded"
          ? { kind: "error", status: 529, type: "overloaded_error", message: "Overloaded" }
          : { kind: "error", status: 500, type: "api_error", message: "Internal server error" };
      }
    }

    if (options.redos === true) conformance.rewind(instance, step);
    const problems = conformance.check(instance, request);
    const recorded = recording.instances[instance]?.[step];
    if (recorded === undefined) problems.push(`${instance}: no step ${step} in the recording`);
    else {
      const last = text(messages.at(-1));
      const wanted = recorded.expect?.lastUserIncludes;
      if (wanted !== undefined && !last.includes(wanted)) {
        problems.push(
          `${instance} step ${step}: the last user message lacks ${JSON.stringify(wanted)}`,
        );
      }
    }
    if (problems.length > 0 || recorded === undefined) {
      conformance.problems.push(...problems.filter((p) => !conformance.problems.includes(p)));
      return {
        kind: "error",
        status: 400,
        type: "invalid_request_error",
        message: problems.join("; "),
      };
    }
    furthest.set(instance, Math.max(furthest.get(instance) ?? 0, step + 1));
    const content =
      options.asTheApi === false
        ? structuredClone(recorded.response.content)
        : asTheApiSendsIt(recorded.response.content, `${instance}#${step}`, step);
    // A response cut at max_tokens is asked again, not kept: only kept turns must come back.
    if (recorded.response.stopReason !== "max_tokens") conformance.recordServed(instance, content);
    charged.push(`${instance}#${step}`);
    const u = options.usage?.(body, content) ?? recorded.response.usage;
    return {
      kind: "message",
      message: {
        id: `msg_fake_${++messageNumber}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content,
        stop_reason: recorded.response.stopReason,
        stop_sequence: null,
        stop_details: null,
        usage: {
          input_tokens: u.inputTokens,
          output_tokens: u.outputTokens,
          cache_read_input_tokens: u.cacheReadTokens,
          cache_creation_input_tokens: u.cacheWriteTokens,
          ...(u.cacheWrite1hTokens === undefined
            ? {}
            : {
                cache_creation: {
                  ephemeral_5m_input_tokens: u.cacheWriteTokens - u.cacheWrite1hTokens,
                  ephemeral_1h_input_tokens: u.cacheWrite1hTokens,
                },
              }),
        },
      },
    };
  };

  return {
    respond,
    conformance,
    charged,
    faults: faultsServed,
    unplayed: () =>
      Object.fromEntries(
        Object.entries(recording.instances)
          .map(([name, steps]) => [name, steps.length - (furthest.get(name) ?? 0)] as const)
          .filter(([, left]) => left > 0),
      ),
  };
}

/**
 * Stricter than the recording, as the API is: a signed thinking block first, on every third
 * step followed by a redacted one (opaque encrypted `data`, "pass back unchanged":
 * @anthropic-ai/sdk 1.12.0 RedactedThinkingBlock), unsorted keys.
 */
function asTheApiSendsIt(content: readonly Block[], tag: string, step: number): Block[] {
  const out: Block[] = [
    {
      type: "thinking",
      thinking: `Working on ${tag}.`,
      signature: `sig-${Buffer.from(tag).toString("base64")}==`,
    },
  ];
  if (step % 3 === 2) {
    out.push({ type: "redacted_thinking", data: `enc-${Buffer.from(tag).toString("hex")}` });
  }
  for (const block of content) {
    if (block.type === "tool_use") out.push({ ...block, input: descending(block.input) });
    else if (block.type === "text") out.push({ type: "text", text: block.text, citations: null });
    else out.push({ ...block });
  }
  return out;
}

/** Keys in reverse alphabetical order at every depth: never what a key sort produces. */
function descending(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(descending);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort().reverse()) {
    Object.defineProperty(out, key, {
      value: descending((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function withoutMarkers(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (k, v: unknown) =>
    k === "cache_control" ? undefined : v,
  );
}

function text(message: { content: Block[] } | undefined): string {
  if (message === undefined) return "";
  return message.content
    .map((b) =>
      b.type === "text" ? String(b.text) : b.type === "tool_result" ? String(b.content) : "",
    )
    .join("\n");
}

/** What tells apart instances whose first messages look alike: a task's brief, its name. */
function instanceHints(recording: Recording): Map<string, string[]> {
  const hints = new Map<string, string[]>();
  for (const [name, steps] of Object.entries(recording.instances)) {
    const thread = name.split("@")[1] ?? "";
    const task = thread.replace(/^(dispatch|verify):/, "").replace(/-\d+$/, "");
    hints.set(name, [`\`${task}\``, task]);
    for (const step of steps) {
      for (const block of step.response.content) {
        const input = block.input as { id?: unknown; brief?: unknown } | undefined;
        if (
          block.type === "tool_use" &&
          block.name === "dispatch" &&
          typeof input?.brief === "string"
        ) {
          const worker = `worker@dispatch:${String(input.id)}`;
          hints.set(worker, [input.brief.slice(0, 80), ...(hints.get(worker) ?? [])]);
        }
      }
    }
  }
  return hints;
}

function claim(
  recording: Recording,
  claimed: Map<string, string>,
  hints: Map<string, string[]>,
  messages: { role: string; content: Block[] }[],
): string | undefined {
  const first = text(messages[0]);
  const taken = new Set(claimed.values());
  const candidates = Object.entries(recording.instances)
    .filter(([name]) => !taken.has(name))
    .filter(([, steps]) => {
      const wanted = steps[0]?.expect?.lastUserIncludes;
      return wanted === undefined || first.includes(wanted);
    })
    .map(([name]) => name);
  if (candidates.length <= 1) return candidates[0];
  return candidates.find((name) => (hints.get(name) ?? []).some((hint) => first.includes(hint)));
}

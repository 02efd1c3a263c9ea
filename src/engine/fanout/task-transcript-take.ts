// What the lead takes of a task run's worker transcript: the run commits the
// worker's conversation on its branch (`.cfa/turns/transcript.jsonl`, wake-task.ts), and the
// lead copies it into the job branch's record of that worker — the file the lead's own run
// writes for it — so `cfa show`, `cfa inspect` and a later turn in the lead's run read the
// task's turns as if they had run there. Pure. The text was written on a runner where an
// agent's commands ran: it is checked here before a byte of it is taken, and taken whole or
// not at all (a transcript cut anywhere but at a turn's end does not load again):
// - bounded: over TASK_TRANSCRIPT_MAX_BYTES it is refused, never read whole;
// - parsed line by line as every transcript is (loadTranscript): one line that is not a
//   transcript entry refuses it; the lines of a turn that did not end are left out;
// - a continuation: what the job branch holds for the worker must be where it starts, so a
//   task run cannot rewrite the turns the worker took in the lead's run;
// - the delivered turns, one for one: the turns it adds are as many as the lead delivered
//   through the commit it was read at, and each opens on the message the lead's delivery
//   started that turn on (the bus's, not the branch's), or, for a worker's later turn in a
//   record, on the subtree mail the fold checked (subtree-mail.ts) — a sub-task's reply only
//   after the worker's own dispatch of that sub-task, earlier in the transcript, succeeded.
//   Nothing in a transcript names its instance, so without this another instance's
//   well-formed conversation would pass on the worker's first run (nothing to continue yet),
//   and a dead run's turn whose record never counted would be taken with the ones that did;
// - no secret the lead's process knows may be in what it adds (the runner had its own
//   environment; a known secret there would reach the job branch in the lead's commit).
// Where it goes is the caller's: always the worker's own file (`paths.instance`), never a
// path named by the branch.

import { loadTranscript, TranscriptError } from "../../agents/transcript/index.js";

/** The largest transcript the lead reads from a task branch (bytes). */
export const TASK_TRANSCRIPT_MAX_BYTES = 32 * 1024 * 1024;

/** Why a transcript is refused, as the ledger keeps it (each said once). */
export type TranscriptRefusal =
  "oversized" | "not-entries" | "not-a-continuation" | "not-the-delivered-turns" | "secret";

/**
 * What a new turn must open on: a message's text, or a sub-task's reply (subtree-mail.ts),
 * whose sender the worker's transcript must have dispatched before that turn.
 */
export type TurnOpening = string | { text: string; from: string };

export type TranscriptTake =
  | { kind: "take"; text: string; turns: number }
  | { kind: "nothing-new" }
  | { kind: "refuse"; refusal: TranscriptRefusal; why: string };

/** The ledger key a refusal is said once under. */
export const transcriptRefusalKey = (r: TranscriptRefusal) => `transcript:${r}`;

export function takeTaskTranscript(
  incoming: string,
  current: string,
  holdsSecret: (text: string) => boolean,
  /**
   * The texts the new turns open on, in order: the messages the lead delivered, and for a
   * turn the worker took in its run on its subtree's mail, that mail as the checked record
   * says it (subtree-mail.ts).
   */
  opens: readonly TurnOpening[],
  maxBytes = TASK_TRANSCRIPT_MAX_BYTES,
): TranscriptTake {
  const bytes = Buffer.byteLength(incoming, "utf8");
  if (bytes > maxBytes) return oversized(bytes, maxBytes);
  let complete: string;
  let turns: number;
  try {
    const loaded = loadTranscript(incoming);
    complete = loaded.completeText;
    turns = loaded.turn;
  } catch (error) {
    if (!(error instanceof TranscriptError)) throw error;
    // The line's number only: nothing of the hostile text is repeated.
    return {
      kind: "refuse",
      refusal: "not-entries",
      why: `its transcript's line ${error.line} is not a transcript entry: not taken`,
    };
  }
  const mine = completeOf(current);
  if (!complete.startsWith(mine))
    return {
      kind: "refuse",
      refusal: "not-a-continuation",
      why: "its transcript does not continue the worker's on the job branch: not taken",
    };
  if (complete.length === mine.length) return { kind: "nothing-new" };
  const unmatched = unmatchedTurn(mine, complete.slice(mine.length), opens);
  if (unmatched !== null)
    return {
      kind: "refuse",
      refusal: "not-the-delivered-turns",
      why: `its transcript's new turns are not the ones the lead delivered (${unmatched}): not taken`,
    };
  if (holdsSecret(complete.slice(mine.length)))
    return {
      kind: "refuse",
      refusal: "secret",
      why: "its transcript holds a secret of the lead's run: not taken",
    };
  return { kind: "take", text: complete, turns };
}

/** The refusal of a transcript of `bytes`, known from its size alone. */
export function oversized(bytes: number, maxBytes = TASK_TRANSCRIPT_MAX_BYTES): TranscriptTake {
  return {
    kind: "refuse",
    refusal: "oversized",
    why: `its transcript is ${bytes} bytes, over the ${maxBytes}-byte bound: not taken`,
  };
}

/**
 * Why the new turns (whole turns, already loaded once) are not the delivered ones, or null:
 * as many turns as `opens`, each opening on its message. The opening is the user message a
 * turn starts on (opening-message.ts): the incoming text as the engine rendered it, so it
 * holds the delivered text (a prefix such as "Message from …" before it), or the tool result
 * that answers a pending question.
 */
function unmatchedTurn(mine: string, added: string, opens: readonly TurnOpening[]): string | null {
  // The sub-tasks the worker's transcript dispatched, as each new turn starts: its earlier
  // turns (the job branch's copy, then the new ones before it).
  const dispatches = new Dispatches();
  for (const line of mine.split("\n")) dispatches.read(parseEntry(line));
  const firsts: { message: unknown; dispatched: ReadonlySet<string> }[] = [];
  let last = 0;
  for (const line of added.split("\n")) {
    const entry = parseEntry(line);
    if (entry === null) continue;
    if (entry.turn !== last) {
      last = entry.turn;
      firsts.push({
        message: entry.type === "message" ? entry.message : null,
        dispatched: new Set(dispatches.done),
      });
    }
    dispatches.read(entry);
  }
  if (firsts.length !== opens.length)
    return `${firsts.length} turn${firsts.length === 1 ? "" : "s"} where the lead delivered ${opens.length}`;
  for (const [n, first] of firsts.entries()) {
    const open = opens[n]!;
    const text = typeof open === "string" ? open : open.text;
    if (!opensOn(first.message, text)) return `its turn ${n + 1} of them opens on another message`;
    if (typeof open !== "string" && !first.dispatched.has(open.from))
      return `its turn ${n + 1} of them opens on a reply from ${open.from}, which it never dispatched`;
  }
  return null;
}

interface Entry {
  type: string;
  turn: number;
  message?: { role?: string; content?: unknown };
}

/** A line of a transcript already loaded once (its own lines parse), or null when blank. */
function parseEntry(line: string): Entry | null {
  if (line.trim() === "") return null;
  try {
    return JSON.parse(line) as Entry;
  } catch {
    // The job branch's copy is the lead's own, kept as it is even when it does not load.
    return null;
  }
}

/**
 * The worker's dispatch calls in a transcript that succeeded: a `dispatch` tool_use naming
 * the sub-task's id, answered by a tool_result that is not an error (a refused dispatch
 * created nothing that could reply).
 */
class Dispatches {
  readonly done = new Set<string>();
  private readonly pending = new Map<string, string>();

  read(entry: Entry | null): void {
    const content = entry?.type === "message" ? entry.message?.content : undefined;
    if (!Array.isArray(content)) return;
    for (const b of content as Record<string, unknown>[]) {
      const input = b["input"] as { id?: unknown } | undefined;
      if (b["type"] === "tool_use" && b["name"] === "dispatch" && typeof input?.id === "string")
        this.pending.set(String(b["id"]), input.id);
      const id =
        b["type"] === "tool_result" ? this.pending.get(String(b["tool_use_id"])) : undefined;
      if (id !== undefined && b["is_error"] !== true) this.done.add(id);
    }
  }
}

function opensOn(message: unknown, text: string): boolean {
  const m = message as {
    role?: string;
    content?: { type: string; text?: string; content?: string }[];
  };
  if (m?.role !== "user" || !Array.isArray(m.content)) return false;
  const said = m.content.map((b) => (b.type === "text" ? b.text : b.content) ?? "").join("\n");
  // An empty message opens as "(an empty <kind> message)" (incomingText).
  return text.trim() === "" ? said.includes("(an empty ") : said.includes(text.trim());
}

/** The job branch's copy up to its last whole turn (its own, so a bad one is kept as it is). */
function completeOf(current: string): string {
  try {
    return loadTranscript(current).completeText;
  } catch {
    return current;
  }
}

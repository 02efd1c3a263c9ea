// The fold's fast path: a hand-written structural check of a parsed log
// line, so folding a long log costs little more than JSON.parse of its lines. It accepts a
// line only when the line's zod schema (events.ts) would return it unchanged — exactly the
// known keys, each of the right type — and otherwise says "not sure": the caller then runs
// the zod schema, which either accepts (stripping what it strips) or names what is wrong.
// So the fast path changes how quickly a line is read, never what is read. Its input is
// always fresh JSON.parse output: no getters, no undefined values, arrays without names.

import type { BusLine } from "./events.js";
import { CONSUMED_SOURCES, ESCALATION_POLICIES, TERMINATE_MODES } from "./molecules.js";
import { REJECTION_REASONS } from "./rejection.js";

/** A parsed JSON value, read field by field. */
type J = Record<string, unknown>;

const isObj = (v: unknown): v is J => typeof v === "object" && v !== null;
const str = (v: unknown): boolean => typeof v === "string";
const name = (v: unknown): boolean => typeof v === "string" && v !== "";
const nat = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && v >= 0;
const among = (values: readonly string[], v: unknown): boolean =>
  typeof v === "string" && values.includes(v);

/** Own enumerable keys: JSON.parse output has no inherited ones. */
function size(v: J): number {
  let n = 0;
  for (const _ in v) n += 1;
  return n;
}

function address(v: unknown): boolean {
  return isObj(v) && name(v.agent) && name(v.thread) && size(v) === 2;
}

/** zod's record of unknowns: any plain object; `__proto__` keys are left to zod. */
function record(v: unknown): boolean {
  return isObj(v) && !Array.isArray(v) && !Object.hasOwn(v, "__proto__");
}

function content(v: unknown): boolean {
  if (!isObj(v) || !str(v.kind) || !str(v.text)) return false;
  let n = 2;
  if (v.from !== undefined) {
    if (!address(v.from)) return false;
    n += 1;
  }
  if (v.data !== undefined) {
    if (!record(v.data)) return false;
    n += 1;
  }
  return size(v) === n;
}

function payload(v: unknown): boolean {
  if (!isObj(v)) return false;
  if (v.kind === "deliver") return address(v.to) && content(v.content) && size(v) === 3;
  return v.kind === "terminate" && name(v.thread) && size(v) === 2;
}

function consumed(v: unknown): boolean {
  return isObj(v) && among(CONSUMED_SOURCES, v.from) && content(v.content) && size(v) === 2;
}

function every(v: unknown, check: (x: unknown) => boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!check(x)) return false;
  return true;
}

function origin(v: unknown): boolean {
  if (!isObj(v)) return false;
  switch (v.rule) {
    case "external":
      return size(v) === 1;
    case "send-terminate":
      return address(v.by) && size(v) === 2;
    case "cascade":
      return name(v.parent) && size(v) === 2;
    default:
      return false;
  }
}

const WAKE_RULES: readonly string[] = ["wake", "wake-int", "interrupt"];
const TURN_RULES: readonly string[] = ["send-step", "nosend-step", "ask-step"];

/** seq, batch, at, type and `end: true` when present: the count of those keys, or -1. */
function place(j: J): number {
  if (!nat(j.seq) || !nat(j.batch) || !str(j.at)) return -1;
  if (j.end === undefined) return 4;
  return j.end === true ? 5 : -1;
}

/** Per event type: the count of its own fields when they are right, else -1. */
const FIELDS: Partial<Record<BusLine["type"], (j: J) => number>> = {
  root: (j) => (address(j.a) ? (j.first === undefined ? 1 : content(j.first) ? 2 : -1) : -1),
  spark: (j) => (address(j.from) && address(j.to) && name(j.parent) && content(j.content) ? 4 : -1),
  deliver: (j) => (address(j.from) && address(j.to) && content(j.content) ? 3 : -1),
  refuse: (j) =>
    address(j.from) && payload(j.payload) && among(REJECTION_REASONS, j.reason) ? 3 : -1,
  block: (j) => (address(j.from) && address(j.to) && content(j.content) ? 3 : -1),
  unblock: (j) =>
    address(j.from) && address(j.to) && name(j.parent) && content(j.content) ? 4 : -1,
  "term-blocked": (j) => (address(j.from) && address(j.to) ? 2 : -1),
  "send-empty": (j) => (address(j.a) ? 1 : -1),
  wake: (j) => (address(j.a) && among(WAKE_RULES, j.rule) && content(j.content) ? 3 : -1),
  "turn-end": (j) => {
    if (!address(j.a) || !among(TURN_RULES, j.rule)) return -1;
    if (!every(j.consumed, consumed)) return -1;
    let n = 3;
    if (j.payloads !== undefined) {
      if (!every(j.payloads, payload)) return -1;
      n += 1;
    }
    if (j.ask !== undefined) {
      const ask = j.ask;
      const ok =
        isObj(ask) &&
        name(ask.id) &&
        content(ask.question) &&
        among(ESCALATION_POLICIES, ask.policy) &&
        size(ask) === 3;
      if (!ok) return -1;
      n += 1;
    }
    return n;
  },
  ask: (j) =>
    name(j.id) && address(j.caller) && content(j.question) && among(ESCALATION_POLICIES, j.policy)
      ? 4
      : -1,
  escalate: (j) => (name(j.id) && content(j.framed) ? 2 : -1),
  "human-reply": (j) => (name(j.id) && content(j.reply) ? 2 : -1),
  respond: (j) => (name(j.id) && content(j.answer) ? 2 : -1),
  interrupt: (j) => (name(j.thread) && content(j.content) ? 2 : -1),
  terminate: (j) => (name(j.thread) && among(TERMINATE_MODES, j.mode) && origin(j.origin) ? 3 : -1),
  "term-run": (j) => (address(j.a) && every(j.consumed, consumed) ? 2 : -1),
  "term-idle": (j) => (address(j.a) ? 1 : -1),
  "term-mbox": (j) => (address(j.a) ? 1 : -1),
  "term-send": (j) => (address(j.a) ? 1 : -1),
  "term-ask": (j) => (address(j.a) && name(j.id) ? 2 : -1),
  "term-proxy": (j) => (name(j.id) ? 1 : -1),
  "term-int": (j) => (name(j.thread) && content(j.content) ? 2 : -1),
  "term-final": (j) => (name(j.thread) ? 1 : -1),
};

/**
 * By type, in a Map: the type is a string JSON.parse made, and one Map lookup (its hash taken
 * once) costs less than looking it up as a property name, let alone twice (a type check first).
 */
const CHECKERS = new Map(Object.entries(FIELDS));

/**
 * The line itself when it certainly matches its type's schema as is; null when unsure — its
 * type unknown included (the caller then says why, or runs the schema).
 */
export function checkLine(json: unknown): BusLine | null {
  if (!isObj(json) || typeof json.type !== "string") return null;
  const fields = CHECKERS.get(json.type);
  if (fields === undefined) return null;
  const placed = place(json);
  if (placed < 0) return null;
  const own = fields(json);
  return own >= 0 && size(json) === placed + own ? (json as BusLine) : null;
}

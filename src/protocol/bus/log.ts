// The durable bus log (docs/protocol.md#persistence): append-only JSON Lines, one line per event,
// written one batch (one step or one turn) per append. `fold` rebuilds the durable soup from it.
//
// Crash rules: a torn last line (no trailing newline, or not JSON at the very end) is
// dropped; a batch whose `end` line never made it is dropped whole (it was the in-flight
// turn: a crash loses at most that turn); anything else malformed is a BusLogError naming
// its line. Folding never rewrites: the engine truncates to `committed` and appends after it.

import { canonicalLine } from "../canonical-json.js";
import { BusLogError } from "./errors.js";
import {
  AUDIT_TYPES,
  LINE_SCHEMAS,
  isBusEventType,
  type AuditEntry,
  type BusEvent,
  type BusLine,
} from "./events.js";
import { replayer } from "./fold-apply.js";
import { checkLine } from "./line-check.js";
import { Soup, type SoupOptions } from "./soup.js";
import { DEFAULT_FAN_OUT_CAP, Store } from "./store.js";

/** Where the next batch goes: the seq of its first line and its batch number. */
export interface LogCursor {
  seq: number;
  batch: number;
}

export const LOG_START: LogCursor = { seq: 0, batch: 0 };

/** One line per event, `end` on the last; "" for no events (write nothing, keep the cursor). */
export function encodeBatch(
  events: readonly BusEvent[],
  place: LogCursor & { at: string },
): string {
  let out = "";
  events.forEach((event, i) => {
    const end = i === events.length - 1 ? true : undefined;
    out += canonicalLine({ ...event, seq: place.seq + i, batch: place.batch, at: place.at, end });
    out += "\n";
  });
  return out;
}

/** The cursor after appending `events` at `cursor`. */
export function nextCursor(cursor: LogCursor, events: readonly BusEvent[]): LogCursor {
  if (events.length === 0) return cursor;
  return { seq: cursor.seq + events.length, batch: cursor.batch + 1 };
}

export interface Folded {
  soup: Soup;
  /** Seq of the next line to append. */
  seq: number;
  /** Number of the next batch to append. */
  batch: number;
  /** The outcome and transition entries, in log order. */
  audit: AuditEntry[];
  /** The prefix of the text that holds whole batches: truncate to it before appending. */
  committed: { readonly chars: number; readonly bytes: number };
}

export function fold(text: string, options: SoupOptions = {}): Folded {
  const store = new Store(options.fanOutCap ?? DEFAULT_FAN_OUT_CAP);
  store.deferIndexes();
  const apply = replayer(store);
  const audit: AuditEntry[] = [];
  const pending: BusLine[] = [];
  let seq = LOG_START.seq;
  let batch = LOG_START.batch;
  let committed = 0;
  let pos = 0;
  let number = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    if (nl < 0) break; // torn last line: the write stopped mid-line
    number += 1;
    const raw = text.slice(pos, nl);
    pos = nl + 1;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (cause) {
      if (pos === text.length) break; // torn at the very end
      throw new BusLogError(number, "not valid JSON", { cause });
    }
    const line = parseLine(json, number);
    if (line.seq !== seq) throw new BusLogError(number, `seq ${line.seq}, expected ${seq}`);
    if (line.batch !== batch) {
      throw new BusLogError(
        number,
        pending.length > 0
          ? `batch ${batch} has no end line, yet batch ${line.batch} follows`
          : `batch ${line.batch}, expected ${batch}`,
      );
    }
    seq += 1;
    if (line.end === true && pending.length === 0) {
      // A batch of one line (a wake, most steps): applied as it is read.
      apply(line, number);
      if (isAudit(line)) audit.push(line);
      batch += 1;
      committed = pos;
      continue;
    }
    pending.push(line);
    if (line.end !== true) continue;
    // A batch's lines are consecutive: the first is `number - pending.length + 1`.
    const first = number - pending.length + 1;
    for (let i = 0; i < pending.length; i++) {
      const p = pending[i] as BusLine;
      apply(p, first + i);
      if (isAudit(p)) audit.push(p);
    }
    pending.length = 0;
    batch += 1;
    committed = pos;
  }
  // Lines of an unfinished batch are dropped whole: it was the in-flight turn.
  const seqAtCommit = seq - pending.length;
  store.settleIndexes();
  return {
    soup: new Soup(store),
    seq: seqAtCommit,
    batch,
    audit,
    // Bytes only when asked: counting them scans the whole text, a tenth of a fold.
    committed: {
      chars: committed,
      get bytes() {
        return utf8Length(text, committed);
      },
    },
  };
}

function parseLine(json: unknown, number: number): BusLine {
  // Most lines are exactly what the engine wrote: checked by hand at a fraction of zod's
  // cost (line-check.ts). Anything else gets the schema, and its message when it is wrong.
  const fast = checkLine(json);
  if (fast !== null) return fast;
  const type = (json as { type?: unknown } | null)?.type;
  if (!isBusEventType(type)) {
    throw new BusLogError(number, `unknown event type ${JSON.stringify(type ?? null)}`);
  }
  const parsed = LINE_SCHEMAS[type].safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || type}: ${i.message}`);
    throw new BusLogError(number, `malformed ${type} line (${issues.join("; ")})`);
  }
  return parsed.data as BusLine;
}

/** UTF-8 length of text[0, chars): ASCII counts one, so only the rest is looked at. */
function utf8Length(text: string, chars: number): number {
  let bytes = chars;
  for (const match of text.slice(0, chars).matchAll(/[\u{80}-\u{10ffff}]/gu)) {
    const code = match[0].codePointAt(0) ?? 0;
    // U+0080–U+07FF: 2 bytes for 1 unit; up to U+FFFF: 3 for 1; beyond: 4 for 2 units.
    bytes += code < 0x800 ? 1 : 2;
  }
  return bytes;
}

const AUDIT = new Set<string>(AUDIT_TYPES);

function isAudit(line: BusLine): line is AuditEntry {
  return AUDIT.has(line.type);
}

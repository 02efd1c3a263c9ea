// The durable log (docs/protocol.md#persistence): JSON Lines in batches, and fold's crash rules.

import { describe, expect, it } from "vitest";
import {
  BusLogError,
  LOG_START,
  Soup,
  encodeBatch,
  fold,
  nextCursor,
  type BusEvent,
} from "../../../../src/protocol/bus/index.js";
import { AT, ORCH, World, intentApproved, msg } from "../../../support/protocol/bus-world.js";

const lead = { agent: "lead", thread: "state:intent:1" };

/** A short job: root, a spark, a turn, an audit entry, an interrupt. */
function job(): World {
  const world = new World(new Soup());
  const soup = world.soup;
  world.commit(soup.root(ORCH, msg("start — “go”")));
  world.commit(soup.wake(ORCH));
  world.commit(
    soup.endTurn(ORCH, {
      rule: "send-step",
      payloads: [{ kind: "deliver", to: lead, content: msg("draft") }],
    }),
  );
  world.commit(intentApproved(lead, "ok"));
  world.commit(soup.interrupt(lead.thread, msg("stop")));
  return world;
}

const lines = (text: string) => text.split("\n").filter((l) => l !== "");

describe("encodeBatch", () => {
  it("writes one canonical line per event with seq, batch, at, and end on the last", () => {
    const events: BusEvent[] = [
      { type: "root", a: ORCH },
      { type: "interrupt", thread: "job", content: msg("x") },
    ];
    const text = encodeBatch(events, { seq: 7, batch: 3, at: AT });
    expect(text.endsWith("\n")).toBe(true);
    expect(lines(text).map((l) => JSON.parse(l))).toEqual([
      { a: ORCH, at: AT, batch: 3, seq: 7, type: "root" },
      { at: AT, batch: 3, content: msg("x"), end: true, seq: 8, thread: "job", type: "interrupt" },
    ]);
    expect(lines(text)[0]).toBe(
      `{"a":{"agent":"orch","thread":"job"},"at":"${AT}","batch":3,"seq":7,"type":"root"}`,
    );
    expect(nextCursor({ seq: 7, batch: 3 }, events)).toEqual({ seq: 9, batch: 4 });
    expect(encodeBatch([], { ...LOG_START, at: AT })).toBe("");
    expect(nextCursor(LOG_START, [])).toEqual(LOG_START);
  });
});

describe("fold", () => {
  it("rebuilds the durable soup, the cursor and the audit entries", () => {
    const world = job();
    const folded = fold(world.log);
    expect(folded.soup.equals(world.soup.durable())).toBe(true);
    expect({ seq: folded.seq, batch: folded.batch }).toEqual(world.cursor);
    expect(folded.audit.map((e) => e.type)).toEqual(["outcome", "transition"]);
    expect(folded.committed.chars).toBe(world.log.length);
    expect(folded.committed.bytes).toBe(Buffer.byteLength(world.log));
    // Every live instance is Idle: the root's Run ended; lead never woke.
    expect(folded.soup.instances().map((a) => folded.soup.stateOf(a))).toEqual(["Idle", "Idle"]);
  });

  it("keeps a woken message in the mailbox until its turn ends (bounded crash-loss)", () => {
    const world = job();
    world.commit(world.soup.wake(lead)); // wake-int on "stop"
    const folded = fold(world.log).soup;
    expect(folded.stateOf(lead)).toBe("Idle");
    expect(folded.mailbox(lead)).toEqual([{ ...msg("draft"), from: ORCH }]);
    expect(folded.runnable()).toEqual(expect.arrayContaining([lead]));
    expect(folded.wake(lead).message).toEqual(msg("stop"));
  });

  it("drops a torn last line (no trailing newline) without touching the lines before it", () => {
    const world = job();
    const whole = fold(world.log);
    const torn = world.log + '{"seq":99,"type":"ro';
    const folded = fold(torn);
    expect(folded.soup.equals(whole.soup)).toBe(true);
    expect(folded.committed.chars).toBe(world.log.length);
  });

  it("drops invalid JSON at the very end even with a newline", () => {
    const world = job();
    expect(fold(world.log + "{oops\n").soup.equals(fold(world.log).soup)).toBe(true);
  });

  it("drops a batch whose end line is missing at the end of the file, whole", () => {
    const world = job();
    const before = fold(world.log);
    const batch = encodeBatch(
      [
        { type: "interrupt", thread: "job", content: msg("a") },
        { type: "interrupt", thread: "job", content: msg("b") },
      ],
      { ...world.cursor, at: AT },
    );
    const withoutEnd = world.log + batch.split("\n")[0] + "\n";
    const folded = fold(withoutEnd);
    expect(folded.soup.equals(before.soup)).toBe(true);
    expect({ seq: folded.seq, batch: folded.batch }).toEqual(world.cursor);
    expect(folded.committed.chars).toBe(world.log.length);
  });

  it("names the line of a malformed line that is not at the end", () => {
    const world = job();
    const all = lines(world.log);
    all[2] = "{not json";
    const error = catchError(() => fold(all.join("\n") + "\n"));
    expect(error).toBeInstanceOf(BusLogError);
    expect(error).toMatchObject({ name: "BusLogError", line: 3 });
    expect((error as Error).message).toMatch(/^cfa\/bus: bus log line 3: not valid JSON/);
  });

  it("names the line of a schema violation, an unknown type, a seq gap, a missing end", () => {
    const world = job();
    const all = lines(world.log);
    type Edit = (l: Record<string, unknown>) => Record<string, unknown>;
    // [edited line, change, line named in the error, message]
    const variants: [number, Edit, number, RegExp][] = [
      [1, (l) => ({ ...l, a: { agent: 3 } }), 1, /malformed root line \(a\.agent: /],
      [2, (l) => ({ ...l, type: "teleport" }), 2, /unknown event type "teleport"/],
      [3, (l) => ({ ...l, seq: 40 }), 3, /seq 40, expected 2/],
      [2, (l) => ({ ...l, end: undefined }), 3, /batch 1 has no end line, yet batch 2 follows/],
    ];
    for (const [edit, change, named, message] of variants) {
      const edited = all.map((l, i) =>
        i === edit - 1 ? JSON.stringify(change(JSON.parse(l))) : l,
      );
      const error = catchError(() => fold(edited.join("\n") + "\n"));
      expect(error, String(message)).toBeInstanceOf(BusLogError);
      expect((error as BusLogError).line).toBe(named);
      expect((error as Error).message).toMatch(message);
    }
  });

  it("rejects an event inconsistent with the lines before it, naming its line", () => {
    const bad =
      encodeBatch([{ type: "root", a: ORCH }], { seq: 0, batch: 0, at: AT }) +
      encodeBatch([{ type: "deliver", from: ORCH, to: lead, content: msg("x") }], {
        seq: 1,
        batch: 1,
        at: AT,
      }) +
      encodeBatch([{ type: "root", a: lead }], { seq: 2, batch: 2, at: AT });
    expect(() => fold(bad)).toThrow(/line 2: deliver: orch@job is Idle, expected Send/);
  });

  it("folds an empty log to an empty soup at the start", () => {
    const folded = fold("");
    expect(folded.soup.molecules()).toEqual([]);
    expect({ seq: folded.seq, batch: folded.batch }).toEqual(LOG_START);
  });
});

function catchError(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

// A wake's hold on a job (src/engine/job/session.ts) and how it writes back, without git:
// records change only through named changes, the bus grows by whole batches, the job
// branch is published compare-and-swap (never forced), and state.json carries the engine's
// bookkeeping (docs/protocol.md#persistence).

import { describe, expect, it } from "vitest";
import {
  append,
  applyChange,
  commitAndPush,
  persist,
  progress,
  saveState,
} from "../../../../src/engine/job/session.js";
import { readText } from "../../../../src/engine/tree/files.js";
import { parseJobRecord } from "../../../../src/protocol/job-record.js";
import { engineState } from "../../../../src/records/engine-state.js";
import { memorySession } from "../../../support/engine/memory-session.js";

describe("commitAndPush", () => {
  it("publishes the job branch compare-and-swap: first as new, then from the commit it last pushed", async () => {
    const { s, forge } = await memorySession();
    const first = await commitAndPush(s, "one");
    const second = await commitAndPush(s, "two");
    expect(forge.did).toEqual([
      `push cfa/1 ${first} (expected null)`,
      `push cfa/1 ${second} (expected ${first})`,
    ]);
    expect(s.pushedHead).toBe(second);
  });

  it("nothing to commit pushes nothing and leaves the expected head as it was", async () => {
    const session = await memorySession();
    const { s, forge } = session;
    const first = await commitAndPush(s, "one");
    session.nothingToCommit();
    expect(await commitAndPush(s, "nothing")).toBeNull();
    expect(forge.did).toHaveLength(1);
    expect(s.pushedHead).toBe(first);
  });
});

describe("applyChange", () => {
  it("changes the job record and the engine's bookkeeping together, by name", async () => {
    const { s } = await memorySession();
    const seq = s.engine.seq;
    applyChange(s, { type: "turn-counted" });
    applyChange(s, {
      type: "comment-queued",
      kind: "notice",
      render: (seq) => ({ body: `notice ${seq}` }),
    });
    applyChange(s, {
      type: "comment-queued",
      kind: "notice",
      render: (seq) => ({ body: `notice ${seq}` }),
    });
    expect(s.job.turns).toBe(1);
    expect(s.engine.outbox.map((item) => item.body)).toEqual([
      `notice ${seq}`,
      `notice ${seq + 1}`,
    ]);
    expect(s.engine.seq).toBe(seq + 2);
  });
});

describe("append", () => {
  it("writes one batch per call and moves the log cursor past it; nothing for no events", async () => {
    const { s, audit } = await memorySession();
    const before = { ...s.log };
    const bus = async () => (await readText(s.jobWs.root, s.paths.bus)) ?? "";
    const text = await bus();

    await append(s, []);
    expect(await bus()).toBe(text);
    expect(s.log).toEqual(before);

    await append(s, [
      {
        type: "transition",
        entry: {
          from: "INTENT",
          to: "PLAN",
          action: "APPROVED_INTENT",
          at: "t",
          by: "@ana",
          reason: "ok",
        },
      },
    ]);
    expect(s.log.batch).toBe(before.batch + 1);
    expect((await bus()).startsWith(text)).toBe(true);
    expect((await audit()).filter((e) => e.type === "transition")).toHaveLength(1);
  });
});

describe("persist", () => {
  it("writes state.json with the engine's bookkeeping inside it, then commits", async () => {
    const { s, commits } = await memorySession();
    applyChange(s, { type: "pull-request-opened", number: 5, draft: true, body: "" });
    await persist(s, "cfa #1: a step");
    const saved = parseJobRecord((await readText(s.jobWs.root, s.paths.state))!, s.paths.state);
    expect(engineState(saved).pr).toBe(5);
    expect(commits).toEqual(["cfa #1: a step"]);
  });

  it("saveState alone writes without committing", async () => {
    const { s, commits } = await memorySession();
    await saveState(s);
    expect(await readText(s.jobWs.root, s.paths.state)).not.toBeNull();
    expect(commits).toEqual([]);
  });
});

describe("progress", () => {
  it("one line for the live log, stamped with the session's clock and the job", async () => {
    const { s, lines } = await memorySession();
    progress(s, "worker@dispatch:a", "DISPATCH", "task a", true);
    expect(lines).toEqual([
      {
        at: expect.stringMatching(/^2026-11-22T10:00:\d\d\.000Z$/),
        job: 1,
        who: "worker@dispatch:a",
        event: "DISPATCH",
        detail: "task a",
        verbose: true,
      },
    ]);
  });
});

// A full disk's pause (src/engine/flow/disk-pause.ts) ends when a round is applied or a wake
// ends without meeting one: clearing it is a change of the records alone.

import { describe, expect, it } from "vitest";
import { clearDiskPause, pausedForDisk } from "../../../../src/engine/flow/disk-pause.js";
import { applyChange } from "../../../../src/engine/job/session.js";
import { sessionParts } from "../../../support/engine/session-parts.js";

describe("clearDiskPause", () => {
  it("clears a pause an earlier wake recorded, even at a wake's end that asks to keep this wake's own", () => {
    const s = sessionParts();
    applyChange(s, { type: "disk-full", since: "2026-11-22T09:00:00.000Z", last: "ENOSPC" });
    expect(pausedForDisk(s)).toBe(false);

    clearDiskPause(s, { unlessPausedNow: true });

    expect(s.engine.diskFull).toBeUndefined();
  });

  it("leaves records without a pause as they are (the same objects: no change to commit)", () => {
    const s = sessionParts();
    const { job, engine } = s;

    clearDiskPause(s);

    expect(s.engine).toBe(engine);
    expect(s.job).toBe(job);
  });
});

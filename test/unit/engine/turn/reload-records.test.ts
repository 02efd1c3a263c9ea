// After the round in flight is dropped (src/engine/turn/api-wait.ts `reloadRecords`), the
// records and the soup are what the job worktree holds, not what the dropped round left in
// memory (docs/protocol.md#persistence): the record from state.json, the soup and the log's
// cursor folded from the bus.

import { describe, expect, it } from "vitest";
import { append, applyChange, ORCHESTRATOR } from "../../../../src/engine/job/session.js";
import { writeText } from "../../../../src/engine/tree/files.js";
import { reloadRecords } from "../../../../src/engine/turn/api-wait.js";
import { LOG_START, Soup } from "../../../../src/protocol/bus/index.js";
import { serializeJobRecord } from "../../../../src/protocol/job-record.js";
import { withEngineState } from "../../../../src/records/engine-state.js";
import { sessionParts } from "../../../support/engine/session-parts.js";

describe("reloadRecords", () => {
  it("puts back the committed record, soup and cursor over what the dropped round changed in memory", async () => {
    const s = sessionParts();
    await append(s, s.soup.root(ORCHESTRATOR).events);
    await writeText(
      s.jobWs.root,
      s.paths.state,
      serializeJobRecord(withEngineState(s.job, s.engine)),
    );
    const committed = { ...s.log };
    // The dropped round: a change to the records, a soup and a cursor the files never saw.
    applyChange(s, { type: "disk-full", since: "2026-11-22T10:00:00Z", last: "ENOSPC" });
    s.soup = new Soup({ fanOutCap: 4 });
    s.log = LOG_START;

    await reloadRecords(s);

    expect(s.engine.diskFull).toBeUndefined();
    expect(s.job.engine).toEqual(s.engine);
    expect(s.soup.stateOf(ORCHESTRATOR)).not.toBeNull();
    expect(s.log).toEqual(committed);
  });

  it("a worktree without state.json at HEAD is an error that names the file", async () => {
    const s = sessionParts();
    await expect(reloadRecords(s)).rejects.toThrow(`${s.paths.state} is missing at HEAD`);
  });
});

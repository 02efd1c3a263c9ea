// The live log's view, kept between commits, against the whole reading (readJobView) of the
// same files: the same watch lines at every step, and only appended lines parsed again.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobRecordTexts } from "../../../src/cli/job-records.js";
import { readJobView } from "../../../src/cli/job-view.js";
import { createLiveJobView } from "../../../src/cli/live-job-view.js";
import { readRecordsDir } from "../../../src/cli/live-records-log.js";
import { renderWatch } from "../../../src/cli/watch-render.js";
import { jobPaths } from "../../../src/records/job-paths.js";
import { runScriptedJob, type ScriptedJob } from "../../support/cli/scripted-job.js";
import { bound } from "../../support/time-bound.js";

let scripted: ScriptedJob;
let worktree: string;
beforeAll(async () => {
  scripted = await runScriptedJob();
  worktree = mkdtempSync(join(tmpdir(), "cfa-live-view-"));
}, bound(120_000));
afterAll(async () => {
  rmSync(worktree, { recursive: true, force: true });
  await scripted?.job.cleanup();
});

const paths = jobPaths(1);
const put = (path: string, text: string) => {
  mkdirSync(dirname(join(worktree, path)), { recursive: true });
  writeFileSync(join(worktree, path), text);
};
const writeRecords = (texts: JobRecordTexts, bus = texts.bus) => {
  rmSync(join(worktree, paths.instancesDir), { recursive: true, force: true });
  put(paths.state, texts.state ?? "");
  put(paths.bus, bus);
  for (const [name, text] of Object.entries(texts.transcripts)) {
    put(`${paths.instancesDir}/${name}.jsonl`, text);
  }
};
const whole = () => renderWatch(readJobView(readRecordsDir(1, worktree, null)));
const busLines = (texts: JobRecordTexts) => texts.bus.split("\n").filter((l) => l !== "");

describe("the live job view", () => {
  it("renders what the whole reading renders after each of 40+ appended bus lines, a torn line among them", () => {
    const live = createLiveJobView(null);
    const lines = busLines(scripted.texts);
    expect(lines.length).toBeGreaterThan(40);
    for (let k = 0; k <= lines.length; k++) {
      const bus = lines.slice(0, k).join("\n") + (k > 0 ? "\n" : "");
      // A torn line (a write cut short) after the whole ones: neither reading takes it.
      const torn = k < lines.length ? lines[k]!.slice(0, 20) : "";
      writeRecords(scripted.texts, bus + torn);
      expect(renderWatch(live.read(1, worktree))).toEqual(whole());
    }
  });

  it("goes from the waiting records to the finished ones as the whole reading does, parsing only what was appended", () => {
    const live = createLiveJobView(null);
    expect(scripted.texts.bus.startsWith(scripted.waitingTexts.bus)).toBe(true);
    writeRecords(scripted.waitingTexts);
    const waiting = live.read(1, worktree);
    expect(renderWatch(waiting)).toEqual(whole());
    writeRecords(scripted.texts);
    const finished = live.read(1, worktree);
    expect(renderWatch(finished)).toEqual(whole());
    // The lines read before are the very objects read before: not parsed again.
    const before = waiting.lines.length;
    expect(finished.lines.length).toBeGreaterThan(before);
    finished.lines.slice(0, before).forEach((line, i) => expect(line).toBe(waiting.lines[i]));
  });

  it("reads a bus that was rewritten, not appended to, whole again", () => {
    const live = createLiveJobView(null);
    writeRecords(scripted.texts);
    const first = live.read(1, worktree);
    // The same number of lines, the first one changed: an append-only reading would miss it.
    const lines = busLines(scripted.texts);
    const changed = JSON.stringify({ ...JSON.parse(lines[0]!), at: "2020-01-01T00:00:00.000Z" });
    writeRecords(scripted.texts, [changed, ...lines.slice(1)].join("\n") + "\n");
    const second = live.read(1, worktree);
    expect(second.lines[0]).not.toBe(first.lines[0]);
    expect(second.lines[0]?.at).toBe("2020-01-01T00:00:00.000Z");
    expect(renderWatch(second)).toEqual(whole());
  });

  it("reads transcripts appended to, and one removed, as the whole reading does", () => {
    const live = createLiveJobView(null);
    const [name, text] = Object.entries(scripted.texts.transcripts)[0]!;
    const half = text.split("\n").slice(0, 2).join("\n") + "\n";
    writeRecords({
      ...scripted.texts,
      transcripts: { ...scripted.texts.transcripts, [name]: half },
    });
    expect(live.read(1, worktree).instances).toEqual(
      readJobView(readRecordsDir(1, worktree, null)).instances,
    );
    writeRecords(scripted.texts);
    expect(live.read(1, worktree).instances).toEqual(
      readJobView(readRecordsDir(1, worktree, null)).instances,
    );
    const { [name]: _gone, ...rest } = scripted.texts.transcripts;
    writeRecords({ ...scripted.texts, transcripts: rest });
    const instances = live.read(1, worktree).instances;
    expect(instances).toEqual(readJobView(readRecordsDir(1, worktree, null)).instances);
    expect(instances).toHaveLength(Object.keys(rest).length);
  });
});

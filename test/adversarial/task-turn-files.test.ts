// A task run's branch is written by a runner an agent's commands ran on, so the files under
// `.cfa/turns/` are hostile. The lead reads them from the commit it fetched with git alone
// (src/engine/fanout/task-turn-files.ts): only regular files named as a record is, whose content
// names the same turn and epoch as the file. Each plant below is refused by path with its reason
// and the one honest record is still read; the positive control — a reader that takes every `.json`
// file of the checked-out tree — counts the planted copies of a turn and follows a link, which
// would charge and fold one turn twice.

import { readdirSync, readFileSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitClient } from "../../src/git/git-client.js";
import { readTaskTurnRecords } from "../../src/engine/fanout/task-turn-files.js";
import {
  parseTaskTurnRecord,
  taskTurnPath,
  type TaskTurnRecord,
} from "../../src/records/task-turn-record.js";
import { cases } from "../support/adversarial/count.js";
import { makeTempRepo, type TempRepo } from "../support/git/temp-repo.js";

const record = (over: Partial<TaskTurnRecord> = {}): TaskTurnRecord => ({
  v: 1,
  job: 7,
  task: "api",
  epoch: 2,
  seq: 1,
  run: "901",
  calls: 1,
  costUsd: 0.1,
  ended: true,
  sends: [{ to: "project-lead@job:7", kind: "reply", text: "done" }],
  done: true,
  head: "c".repeat(40),
  ...over,
});
const json = (r: TaskTurnRecord) => JSON.stringify(r);
const DIR = ".cfa/turns";

/** What a hostile run can put beside its honest record; each with the reason the lead gives. */
const PLANTS: [string, string, (repo: TempRepo) => void, RegExp][] = [
  [
    "the same turn again under another turn's name",
    `${DIR}/000002-e2.json`,
    (r) => r.write(`${DIR}/000002-e2.json`, json(record({ costUsd: 0 }))),
    /its name is not its turn and epoch/,
  ],
  [
    "the same turn under a name that is no record's",
    `${DIR}/000001-e2.json.bak.json`,
    (r) => r.write(`${DIR}/000001-e2.json.bak.json`, json(record())),
    /not a turn record's name/,
  ],
  [
    "a link to the honest record",
    `${DIR}/000003-e2.json`,
    (r) => symlinkSync("000001-e2.json", join(r.repo, `${DIR}/000003-e2.json`)),
    /not a regular file/,
  ],
  [
    "a folder of records",
    `${DIR}/000004-e2.json`,
    (r) => r.write(`${DIR}/000004-e2.json/000004-e2.json`, json(record({ seq: 4 }))),
    /not a regular file/,
  ],
  [
    "a record that is not JSON",
    `${DIR}/000005-e2.json`,
    (r) => r.write(`${DIR}/000005-e2.json`, "{ not json"),
    /not a turn record: not JSON/,
  ],
  [
    "a record with a field the schema does not know",
    `${DIR}/000006-e2.json`,
    (r) =>
      r.write(`${DIR}/000006-e2.json`, JSON.stringify({ ...record({ seq: 6 }), trusted: true })),
    /not a turn record/,
  ],
  [
    "a name with a newline in it",
    `${DIR}/000007-e2.json?x`,
    (r) => r.write(`${DIR}/000007-e2.json\nx`, json(record({ seq: 7 }))),
    /not a turn record's name/,
  ],
];

describe(
  cases("a task branch's turn files, planted by a hostile run", PLANTS.length, "plants"),
  () => {
    let repo: TempRepo;
    let commit: string;

    beforeAll(() => {
      repo = makeTempRepo({ prefix: "cfa-adv-turns-" });
      mkdirSync(join(repo.repo, DIR), { recursive: true });
      writeFileSync(join(repo.repo, taskTurnPath(1, 2)), json(record()));
      for (const [, , plant] of PLANTS) plant(repo);
      commit = repo.commitAll("a hostile run's records");
    });
    afterAll(() => repo.cleanup());

    it.each(PLANTS)("%s: refused by path with its reason", async (_name, path, _plant, why) => {
      const read = await readTaskTurnRecords((args) => gitClient(repo.repo).raw(args), commit);
      const refusal = read.refused.find((r) => r.path === path);
      expect(refusal?.why).toMatch(why);
    });

    it("the honest record alone is read, once", async () => {
      const read = await readTaskTurnRecords((args) => gitClient(repo.repo).raw(args), commit);
      expect(read.records).toEqual([record()]);
      expect(read.refused).toHaveLength(PLANTS.length);
    });

    it("positive control: a reader of every .json file in the tree reads turn 1 four times", () => {
      const naive = readdirSync(join(repo.repo, DIR), { recursive: true })
        .map(String)
        .filter((n) => n.endsWith(".json"))
        .flatMap((n) => {
          try {
            const parsed = parseTaskTurnRecord(readFileSync(join(repo.repo, DIR, n), "utf8"));
            return parsed.ok ? [parsed.record] : [];
          } catch {
            return []; // the folder itself
          }
        });
      expect(naive.filter((r) => r.seq === 1 && r.epoch === 2)).toHaveLength(4);
    });
  },
);

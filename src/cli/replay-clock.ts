// The clock of a replayed repository. A replay stamps its records from a fixed instant
// (run-replay.ts: repeatable records); a person who carries the replayed job on (`cfa approve
// 1 --repo <replay>/repo`) would stamp the next records with the real time, months away and
// out of order in the log. So the replay leaves where its clock stopped beside the local
// forge's records, and every later command on that repository carries the same stepping
// clock on from there.

import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { steppingClock, type Clock } from "../ports/clock.js";
import { gitText } from "./git-text.js";

const FILE = "replay-clock";

async function clockFile(repoDir: string): Promise<string> {
  const common = (
    await gitText(repoDir, ["rev-parse", "--path-format=absolute", "--git-common-dir"])
  ).trim();
  return join(common, "cfa-local", FILE);
}

/** A stepping clock, with `save` to write where it stopped. */
export interface ReplayClock extends Clock {
  save(): Promise<void>;
}

function stepping(path: string, start: string): ReplayClock {
  const clock = steppingClock(start);
  return {
    now: () => clock.now(),
    async save() {
      await mkdir(join(path, ".."), { recursive: true });
      await writeFile(path, `${clock.now().toISOString()}\n`);
    },
  };
}

/** The replay's own clock, from `start`; `save` leaves it for the commands after. */
export async function replayClock(repoDir: string, start: string): Promise<ReplayClock> {
  return stepping(await clockFile(repoDir), start);
}

/** The clock a replay left in this repository, carried on; null for any other repository. */
export async function continuedReplayClock(repoDir: string): Promise<ReplayClock | null> {
  const path = await clockFile(repoDir);
  const text = (await readFile(path, "utf8").catch(() => "")).trim();
  return Number.isNaN(Date.parse(text)) || text === "" ? null : stepping(path, text);
}

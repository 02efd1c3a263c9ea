// The process a kill -9 test kills (test/e2e/kill-9.test.ts): it wakes job 1 of the local
// repository at argv[2] to its end, every model call taking a few milliseconds. It prints
// "call <k>" as its k-th model call starts, so the parent can aim its SIGKILL at any call of
// the job whatever the machine's speed, and "ended <state>" if it lives to the end.

import { join } from "node:path";
import { wireLocal } from "../../../src/cli/wiring.js";
import { wake } from "../../../src/engine/index.js";
import { systemClock } from "../../../src/ports/clock.js";
import type { Model } from "../../../src/ports/model.js";
import { killRecording, killModel } from "./kill-recording.js";

const root = process.argv[2];
if (root === undefined) throw new Error("kill-child: no root");
const callMs = Number(process.argv[3] ?? "5");

const scripted = killModel(killRecording());
let calls = 0;
const model: Model = {
  async complete(request, options) {
    calls += 1;
    process.stdout.write(`call ${calls}\n`);
    await new Promise((r) => setTimeout(r, callMs));
    return scripted.complete(request, options);
  },
};
const { deps } = await wireLocal({
  repoDir: join(root, "repo"),
  workRoot: join(root, "work"),
  model,
  clock: systemClock,
  person: "ana",
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
});
const summary = await wake(1, deps);
process.stdout.write(`ended ${summary.state}\n`);

// Entry point of the worker on an Actions runner (`node dist/worker/main.js`; the action in
// action.yml runs it). Everything is in run-worker.ts; this file only owns the process.

import { runWorker } from "./run-worker.js";

// A cancelled run (a person, /withdraw, the job's timeout-minutes) gets SIGINT, then SIGTERM
// 7500 ms later, then its process tree killed 2500 ms after that
// (https://docs.github.com/en/actions/reference/workflow-cancellation-reference). SIGINT stops
// the wake cleanly and at once: running turns cut, records committed and pushed, the job's
// next run dispatched (run-job.ts). SIGTERM (or a second SIGINT) aborts: nothing more lands.
const stop = new AbortController();
const controller = new AbortController();
process.once("SIGINT", () => {
  stop.abort({ reason: "the run was cancelled (SIGINT)", now: true });
  process.once("SIGINT", () => controller.abort(new Error("the run was cancelled (SIGINT twice)")));
});
process.once("SIGTERM", () => controller.abort(new Error("the run was cancelled (SIGTERM)")));
process.exitCode = await runWorker(process.argv.slice(2), process.env, {
  signal: controller.signal,
  stop: stop.signal,
});

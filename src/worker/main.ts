// Entry point of the worker on an Actions runner (`node dist/worker/main.js`; the action in
// action.yml runs it). Everything is in run-worker.ts; this file only owns the process.

import { runWorker } from "./run-worker.js";

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => controller.abort(new Error(`the run was cancelled (${signal})`)));
}
process.exitCode = await runWorker(process.argv.slice(2), process.env, {
  signal: controller.signal,
});

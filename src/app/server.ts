// Entry point of the webhook server (`npm start`, `node dist/app/server.js`, the Docker
// image's command). Nothing here but starting, stopping, and a clear message when the
// environment is wrong.

import { startServer } from "./start-server.js";

/** Docker waits 10 s after SIGTERM before SIGKILL (`docker stop -t`); leave some of it. */
const DRAIN_MS = 8_000;

try {
  const { close, queue, logger } = await startServer(process.env);
  const stop = async (signal: string) => {
    // No new deliveries; then let the accepted ones finish for a while. What is left is
    // recovered by the worker's scheduled sweep (docs/install.md). Said, so a log that ends
    // shows why it ended.
    logger.info(
      `cfa/app: ${signal}: stopping; no new deliveries, ${queue.size()} accepted ones finishing (up to ${DRAIN_MS / 1000} s)`,
    );
    await close();
    const drained = await Promise.race([
      queue.onIdle().then(() => true),
      new Promise<false>((resolve) => setTimeout(resolve, DRAIN_MS, false).unref()),
    ]);
    if (drained) logger.info(`cfa/app: stopped on ${signal}`);
    else {
      console.error(
        `cfa/app: stopped on ${signal} with ${queue.size()} deliveries or effects unfinished; the scheduled sweep wakes their jobs`,
      );
    }
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      stop(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`cfa/app: could not stop cleanly after ${signal}:`, error);
          process.exit(1);
        },
      );
    });
  }
} catch (error) {
  // A ConfigError names the variables and never their values.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

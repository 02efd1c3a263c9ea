// Entry point of the webhook server (`node dist/app/server.js`, the Docker image's command).
// Nothing here but starting, stopping, and a clear message when the environment is wrong.

import { startServer } from "./start-server.js";

try {
  const { server } = await startServer(process.env);
  const stop = (signal: string) => {
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`cfa/app: could not stop cleanly after ${signal}:`, error);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
} catch (error) {
  // A ConfigError names the variables and never their values.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

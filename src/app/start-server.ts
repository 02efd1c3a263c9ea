// Starts Probot's server with the cfa app. Built by hand rather than with Probot's run(),
// which would fall back to its setup mode or to the "development" secret. Logging is
// Probot's default (pino, level info).

import { Probot, Server, type ApplicationFunction } from "probot";
import { registerEnvSecrets, registerSecret } from "../secrets/index.js";
import cfaApp from "./index.js";
import { serverSettings, type ServerSettings } from "./server-settings.js";

export async function startServer(
  env: Readonly<Record<string, string | undefined>>,
  appFn: ApplicationFunction = cfaApp,
): Promise<{ server: Server; settings: ServerSettings }> {
  // The app's key and webhook secret are cut from everything it writes or logs.
  registerEnvSecrets(env);
  const settings = serverSettings(env);
  registerSecret(settings.privateKey);
  registerSecret(settings.secret);
  const server = new Server({
    host: settings.host,
    port: settings.port,
    webhookPath: settings.webhookPath,
    // The static pages and the default 404 page are Probot's setup UI; not served.
    enableStaticFiles: false,
    Probot: Probot.defaults({
      appId: settings.appId,
      privateKey: settings.privateKey,
      secret: settings.secret,
    }),
  });
  await server.load(appFn);
  await server.start();
  return { server, settings };
}

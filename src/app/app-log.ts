// The server's pino logger, built as Probot builds its own (probot lib/helpers/get-log.js:
// @probot/pino's transform for LOG_FORMAT, pino at LOG_LEVEL) but without `name`. Probot
// then takes a child named "probot" of whatever logger it is given (lib/probot.js), and pino
// writes a child's bindings after its parent's without removing a key already there
// (https://getpino.io/#/docs/child-loggers?id=duplicate-keys-caveat): a named base logger
// made every JSON line say `"name":"probot","name":"probot"`, which a strict JSON reader
// refuses or reads as it pleases.

import { getTransformStream } from "@probot/pino";
import { pino, type Logger } from "pino";
import type { ServerSettings } from "./server-settings.js";

export async function appLog(
  settings: Pick<ServerSettings, "logLevel" | "logFormat">,
): Promise<Logger> {
  const transform = await getTransformStream({ logFormat: settings.logFormat });
  // sonic-boom writes as a stream does; its types do not say so (Probot pipes it the same way).
  transform.pipe(pino.destination(1) as unknown as NodeJS.WritableStream);
  return pino({ level: settings.logLevel, messageKey: "msg" }, transform);
}

// The Forge every entry point (app, worker, cli) hands the engine: each text it posts is
// redacted first (src/secrets: nothing leaves with a secret) and then passes the outbound
// filter (./outbound-text.ts: no mention or closing keyword but the bot's own). In that
// order: the filter's word joiners would split a secret the redactor must still see whole.

import type { Forge } from "../ports/forge.js";
import { mapForgeTexts, type Redactor } from "../secrets/index.js";
import { outboundText } from "./outbound-text.js";

export function outboundForge<F extends Forge>(forge: F, redactor: Redactor): F {
  return mapForgeTexts(forge, (text, where) => outboundText(redactor.redact(text, where)));
}

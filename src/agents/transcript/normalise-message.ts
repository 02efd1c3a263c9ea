// A message with its keys in canonical order at every depth (tool inputs included) and no
// undefined fields: the form messages take when written to and read from a transcript, so
// what a resumed instance sends is what it would have sent without the restart.

import type { Message } from "../../ports/model.js";
import { canonicalLine } from "../../protocol/canonical-json.js";

export function normaliseMessage(message: Message): Message {
  return JSON.parse(canonicalLine(message)) as Message;
}

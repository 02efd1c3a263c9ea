// A message as it is written to and read from a transcript: a plain JSON copy, keys in the
// order they were given, no undefined fields. Never re-ordered: an assistant turn goes back to
// the API exactly as the API returned it, so what a resumed instance sends is
// byte for byte what it would have sent without the restart. (Transcripts written before this
// rule have their keys sorted; they load as they are and keep being sent as they were.)

import type { Message } from "../../ports/model.js";

export function normaliseMessage(message: Message): Message {
  return JSON.parse(JSON.stringify(message)) as Message;
}

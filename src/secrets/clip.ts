// Redaction before truncation: a text cut to fit (a reason in a comment, a
// status line, a title) is redacted first and cut after. Cut first, a secret's first
// characters survive and no longer match anything the redactor knows.

import { redact } from "./process-redactor.js";

/** `text` through the process redactor, then at most `max` characters of it. */
export function clip(text: string, max: number, where = "text"): string {
  return redact(text, where).slice(0, max);
}

// The forms a secret takes on its way out (issue 18 §3), each as it appears in a text's
// skeleton (./text-skeleton.ts: lowercased, whitespace and escapes gone, %XX, \uXXXX and
// HTML entities decoded — so URL- and JSON-encoded forms need no needle of their own):
//
// - the secret itself;
// - hex of its UTF-8 bytes (either case: the skeleton is lowercased);
// - base64 and base64url at each of the three alignments a secret can have inside a longer
//   encoded text (a Basic auth header encodes `user:token`, a JSON document, a file): only
//   the characters every bit of which comes from the secret, so the neighbours do not matter
//   (RFC 4648 §4 and §5);
// - each line of a PEM key's body (part of a key is as bad as all of it).

import { skeleton } from "./text-skeleton.js";

/** Shorter forms would match ordinary text once case and spacing are ignored. */
export const MIN_FORM_LENGTH = 8;
/** A line of a PEM body: long enough to be key material, not a header. */
const MIN_PEM_LINE = 16;

export function secretForms(secret: string): string[] {
  const forms = new Set<string>();
  const add = (form: string) => {
    if (form.length >= MIN_FORM_LENGTH) forms.add(form.toLowerCase());
  };
  add(skeleton(secret).text);
  const bytes = Buffer.from(secret, "utf8");
  add(bytes.toString("hex"));
  for (let align = 0; align < 3; align += 1) {
    const padded = Buffer.concat([Buffer.alloc(align), bytes]);
    // Character k of the encoding carries bits [6k, 6k+6); the secret's bits are
    // [8·align, 8·(align+length)).
    const start = Math.ceil((8 * align) / 6);
    const end = Math.floor((8 * (align + bytes.length)) / 6);
    add(padded.toString("base64").slice(start, end));
    add(padded.toString("base64url").slice(start, end));
  }
  if (secret.includes("-----BEGIN")) {
    for (const line of secret.split(/\r?\n|\\n/)) {
      const body = line.trim();
      if (body.length >= MIN_PEM_LINE && !body.startsWith("-----")) add(skeleton(body).text);
    }
  }
  return [...forms];
}

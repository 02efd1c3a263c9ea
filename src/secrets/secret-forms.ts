// The forms a secret takes on its way out, each as it appears in a text's
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
//
// respelledForms adds what an agent writes to get past those: the secret reversed (and each of its
// forms), ROT13, base32 at each of its five alignments (RFC 4648 §6), base64 of its base64, its odd
// and its even characters (each half of it posted apart), and the secret with everything but
// letters and digits taken out (matched against a text likewise reduced, so `g-h-s-_`,
// `["g","h","s"]` or `67:68:73` spell it too); and its characters' decimal codes run together
// (`103, 104, 115`).

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

/** Forms matched against a text's skeleton window by window (fragment-index.ts). */
export function respelledForms(secret: string): {
  windowed: string[];
  alnum: string[];
  codes: string;
} {
  const reversed = [...secret].reverse().join("");
  const windowed = new Set<string>([...secretForms(secret), ...secretForms(reversed)]);
  const skel = skeleton(secret).text;
  windowed.add(rot13(skel));
  const bytes = Buffer.from(secret, "utf8");
  for (let align = 0; align < 5; align += 1) {
    const padded = Buffer.concat([Buffer.alloc(align), bytes]);
    const start = Math.ceil((8 * align) / 5);
    const end = Math.floor((8 * (align + bytes.length)) / 5);
    windowed.add(base32(padded).slice(start, end));
  }
  const inner = Buffer.from(bytes.toString("base64"), "utf8");
  for (let align = 0; align < 3; align += 1) {
    const padded = Buffer.concat([Buffer.alloc(align), inner]);
    const start = Math.ceil((8 * align) / 6);
    const end = Math.floor((8 * (align + inner.length)) / 6);
    windowed.add(padded.toString("base64").slice(start, end).toLowerCase());
  }
  // Every other character, in two posts: each half is a form of its own.
  for (const start of [0, 1]) windowed.add([...skel].filter((_, i) => i % 2 === start).join(""));
  const alnum = [skel, skeleton(reversed).text].map((form) => form.replace(/[^a-z0-9]/gu, ""));
  const codes = [...secret].map((c) => c.codePointAt(0)).join("");
  return { windowed: [...windowed], alnum, codes };
}

function rot13(text: string): string {
  return text.replace(/[a-z]/gu, (c) =>
    String.fromCharCode(((c.charCodeAt(0) - 97 + 13) % 26) + 97),
  );
}

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** RFC 4648 §6 base32, lowercased, no padding. */
function base32(bytes: Buffer): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

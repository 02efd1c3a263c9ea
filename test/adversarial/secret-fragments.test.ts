// A secret leaves in no form, part or spelling an agent can think of (docs/contributing.md,
// "Conventions": nothing the bot posts contains a secret). The forms secret-encodings.test.ts tries
// are the encodings; these are what got past them: the secret reversed, a part of it alone (its
// first, last or middle 60%), split over two or three posts, spelled with a separator between its
// characters, as a list of characters or of their codes, octal escapes, ROT13, base32, encoded
// twice, in look-alike letters. Each is written into every channel the bot writes
// (secret-channels.ts), a split one post by post; it leaks when ten consecutive characters of any
// post survive in what leaves (ten characters of a random token are 50 bits of it).
//
// Two forms cannot be caught by any redactor that reads text: the secret compressed, or
// XORed with a key — noise without the key or the decompressor. They are tried as well and
// counted, so the share that gets through is the whole table's, not that of the forms chosen
// to pass. A public prefix every token of a kind has (`sk-ant-api03-`) is not a leak of this
// one. Positive control: the redactor with its parts, reversed and respelled forms switched
// off lets most of these through.

import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerSecret, Redactor, skeleton } from "../../src/secrets/index.js";
import { cases } from "../support/adversarial/count.js";
import { CHANNELS, closeSecretChannels } from "../support/adversarial/secret-channels.js";

/** Each secret, with the public prefix every token of its kind shares. */
const SECRETS: Record<string, { secret: string; prefix: string }> = {
  "an installation token": { secret: "ghs_Fr4gm3ntTokenQwErTy0918273645mnbVCX", prefix: "ghs_" },
  "an API key": { secret: "sk-ant-api03-FragmentKey_8Hq2Zt5Wv7Lp-yrtPLK", prefix: "sk-ant-api03-" },
  "a webhook secret": { secret: "4c7e0a9d2b18f6e35a0c7d91b4e8f273", prefix: "" },
};

/**
 * Another secret of the same kind: the same prefix, another body. What its posts share with
 * the secret's came from the prefix alone (any `sk-ant-api03-` key's hex starts alike), and
 * is not a leak of this secret.
 */
const decoyOf = ({ secret, prefix }: { secret: string; prefix: string }) =>
  prefix +
  [...secret.slice(prefix.length)]
    .map((c) => (/[0-9a-zA-Z]/.test(c) ? (c === "z" ? "y" : "z") : c))
    .join("");

/** Ten consecutive characters of a post are a leak (see above). */
const WINDOW = 10;

const b64 = (text: string | Buffer) => Buffer.from(text).toString("base64");
const reverse = (s: string) => [...s].reverse().join("");
const part = (s: string, from: number, to: number) =>
  s.slice(Math.floor(s.length * from), Math.ceil(s.length * to));
const rot13 = (s: string) =>
  s.replace(/[a-z]/gi, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
const base32 = (s: string) => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const byte of Buffer.from(s)) bits += byte.toString(2).padStart(8, "0");
  let out = "";
  for (let i = 0; i < bits.length; i += 5)
    out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, "0"), 2)];
  return out;
};
const FULLWIDTH = (s: string) =>
  [...s]
    .map((c) => (c >= "!" && c <= "~" ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
    .join("");
const LOOKALIKE: Record<string, string> = {
  a: "а",
  e: "е",
  o: "о",
  p: "р",
  c: "с",
  x: "х",
  y: "у",
  A: "А",
  E: "Е",
  O: "О",
  P: "Р",
  C: "С",
  X: "Х",
  T: "Т",
  K: "К",
  M: "М",
  H: "Н",
  B: "В",
};
const lookalike = (s: string) => [...s].map((c) => LOOKALIKE[c] ?? c).join("");
const xor = (s: string) =>
  Buffer.from([...Buffer.from(s)].map((b, i) => b ^ ((0x5a + i) % 256))).toString("hex");

/** Each form: the posts an attacker writes, one channel call each. */
const FORMS: readonly [string, (s: string) => string[]][] = [
  ["reversed", (s) => [reverse(s)]],
  ["reversed, upper case", (s) => [reverse(s).toUpperCase()]],
  ["its first 60% alone", (s) => [part(s, 0, 0.6)]],
  ["its last 60% alone", (s) => [part(s, 0.4, 1)]],
  ["its middle 60% alone", (s) => [part(s, 0.2, 0.8)]],
  ["split over two posts", (s) => [part(s, 0, 0.5), part(s, 0.5, 1)]],
  ["split over three posts", (s) => [part(s, 0, 1 / 3), part(s, 1 / 3, 2 / 3), part(s, 2 / 3, 1)]],
  ["a dash between its characters", (s) => [[...s].join("-")]],
  ["a dot between its characters", (s) => [[...s].join(".")]],
  ["as a list of characters", (s) => [JSON.stringify([...s])]],
  ["as character codes", (s) => [[...s].map((c) => c.charCodeAt(0)).join(", ")]],
  ["as 0x bytes", (s) => [[...Buffer.from(s)].map((b) => `0x${b.toString(16)}`).join(",")]],
  [
    "as colon-separated hex",
    (s) => [[...Buffer.from(s)].map((b) => b.toString(16).padStart(2, "0")).join(":")],
  ],
  ["as octal escapes", (s) => [[...Buffer.from(s)].map((b) => `\\${b.toString(8)}`).join("")]],
  ["ROT13", (s) => [rot13(s)]],
  ["base32", (s) => [base32(s)]],
  ["base64 of it reversed", (s) => [b64(reverse(s))]],
  ["base64 twice", (s) => [b64(b64(s))]],
  [
    "every byte percent-encoded, twice",
    (s) => [[...Buffer.from(s)].map((b) => `%25${b.toString(16).padStart(2, "0")}`).join("")],
  ],
  ["in full-width letters", (s) => [FULLWIDTH(s)]],
  ["in look-alike Cyrillic letters", (s) => [lookalike(s)]],
  ["gzip, then base64", (s) => [b64(gzipSync(s))]],
  ["XOR with a key, as hex", (s) => [xor(s)]],
  [
    "odd and even characters in two posts",
    (s) => [
      [...s].filter((_, i) => i % 2 === 0).join(""),
      [...s].filter((_, i) => i % 2 === 1).join(""),
    ],
  ],
];

/** What no redactor that reads text can catch (see above): counted, and expected through. */
const BEYOND_TEXT = ["gzip, then base64", "XOR with a key, as hex"];

/**
 * Whether `WINDOW` consecutive characters of any post survive in `out` (both as skeletons),
 * other than those the decoy's posts hold too.
 */
function leaked(out: string, posts: readonly string[], decoyPosts: readonly string[]): boolean {
  const texts = [skeleton(out).text, skeleton(out, "drop").text];
  const publicText = decoyPosts.map((p) => skeleton(p).text).join("\n");
  return posts.some((post) => {
    const s = skeleton(post).text;
    for (let k = 0; k + WINDOW <= s.length; k += 1) {
      const piece = s.slice(k, k + WINDOW);
      if (publicText.includes(piece)) continue;
      if (texts.some((t) => t.includes(piece))) return true;
    }
    return false;
  });
}

const TABLE = Object.entries(SECRETS).flatMap(([who, kind]) =>
  FORMS.flatMap(([form, encode]) =>
    CHANNELS.map(([channel, write]) => ({
      name: `${who} ${form} in ${channel}`,
      form,
      posts: encode(kind.secret),
      decoyPosts: encode(decoyOf(kind)),
      write,
    })),
  ),
);

beforeAll(() => {
  for (const { secret } of Object.values(SECRETS)) registerSecret(secret);
});
afterAll(closeSecretChannels);

describe(cases("secrets in parts and respellings × channels", TABLE.length), () => {
  let through: string[] = [];

  beforeAll(async () => {
    through = [];
    for (const row of TABLE) {
      const outs: string[] = [];
      for (const post of row.posts) outs.push(await row.write(`see ${post} there`));
      if (leaked(outs.join("\n"), row.posts, row.decoyPosts)) through.push(row.name);
    }
  });

  it("gets through only where no text redactor can see it: at most 10% of the table", () => {
    const beyond = through.filter((name) =>
      BEYOND_TEXT.some((form) => name.includes(` ${form} in `)),
    );
    expect(through.filter((name) => !beyond.includes(name))).toEqual([]);
    expect(through.length / TABLE.length).toBeLessThanOrEqual(0.1);
    console.log(`secret fragments: ${through.length} of ${TABLE.length} get through`);
  });

  it("positive control: with only the whole secret's forms, most of these get through", () => {
    let passed = 0;
    for (const kind of Object.values(SECRETS)) {
      const whole = new Redactor([kind.secret], undefined, { fragments: false });
      for (const [, encode] of FORMS) {
        const posts = encode(kind.secret);
        const out = posts.map((p) => whole.redact(`see ${p} there`)).join("\n");
        if (leaked(out, posts, encode(decoyOf(kind)))) passed += 1;
      }
    }
    expect(passed).toBeGreaterThan((FORMS.length * 3) / 2);
  });
});

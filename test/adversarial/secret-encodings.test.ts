// A secret leaves in no form (a redactor of literal forms only let encoded ones through). Each
// secret this process holds is written in every form it takes on the way out — encoded (base64 at
// each alignment, base64url, hex, URL, JSON), recased, spaced, split across lines or quoted,
// spelled with entities, escapes or invisible characters — into every channel the bot writes: a
// comment, a pull request, a check run, a commit message, a transcript's tool result and incoming
// message, the worker's log, a text cut to fit, the step summary
// (test/support/adversarial/secret-channels.ts), a branch name. Nothing of it may come out.
// Positive control: the literal-only redactor of before let most forms through.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  holdsSecret,
  Redactor,
  registerSecret,
  secretForms,
  skeleton,
} from "../../src/secrets/index.js";
import { cases } from "../support/adversarial/count.js";
import { CHANNELS, closeSecretChannels } from "../support/adversarial/secret-channels.js";

const SECRETS = {
  "an installation token": "ghs_Enc0dedTokenAbCdEf0123456789xyzXYZ",
  "an API key": "sk-ant-api03-EncodedKey_0123456789-abcdefXYZ",
  "a webhook secret": "9f2c4e1ab37d55e0c8a1f6b2d4e7a903",
};

const b64 = (text: string) => Buffer.from(text).toString("base64");
const b64url = (text: string) => Buffer.from(text).toString("base64url");
const hex = (text: string) => Buffer.from(text).toString("hex");
const halves = (s: string) => [s.slice(0, s.length >> 1), s.slice(s.length >> 1)] as const;

/** Every form, as an attacker would write it into a text. */
const FORMS: readonly [string, (s: string) => string][] = [
  ["as is", (s) => s],
  ["upper case", (s) => s.toUpperCase()],
  ["base64, aligned", (s) => b64(s)],
  ["base64, one byte in", (s) => b64(`x${s}`)],
  ["base64, two bytes in", (s) => b64(`xy${s}!`)],
  ["base64 of a Basic auth header", (s) => `Basic ${b64(`x-access-token:${s}`)}`],
  ["base64, wrapped at 76 columns", (s) => b64(`padding ${s} padding`).replace(/(.{20})/g, "$1\n")],
  ["base64url, aligned", (s) => b64url(s)],
  ["base64url, one byte in", (s) => b64url(`~${s}`)],
  ["base64url, two bytes in", (s) => b64url(`~~${s}?`)],
  ["hex", (s) => hex(s)],
  ["hex, upper case", (s) => hex(s).toUpperCase()],
  ["URL-encoded", (s) => encodeURIComponent(s)],
  [
    "every byte percent-encoded",
    (s) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
  ],
  [
    "JSON with \\u escapes",
    (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
  ],
  ["a zero-width space inside", (s) => `${halves(s)[0]}\u200b${halves(s)[1]}`],
  [
    "a soft hyphen and a word joiner",
    (s) => `${s.slice(0, 5)}\u00ad${s.slice(5, 9)}\u2060${s.slice(9)}`,
  ],
  ["HTML entities", (s) => [...s].map((c) => `&#${c.charCodeAt(0)};`).join("")],
  ["hex entities", (s) => [...s].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join("")],
  ["backslashes between characters", (s) => [...s].join("\\")],
  ["split across lines", (s) => halves(s).join("\n")],
  ["split across quoted lines", (s) => `> ${halves(s).join("\n> ")}`],
  ["spaced out", (s) => [...s].join(" ")],
];

const TABLE = Object.entries(SECRETS).flatMap(([who, secret]) =>
  FORMS.flatMap(([form, encode]) =>
    CHANNELS.map(
      ([channel, write]) =>
        [`${who} ${form} in ${channel}`, secret, encode(secret), write] as const,
    ),
  ),
);

beforeAll(() => {
  for (const secret of Object.values(SECRETS)) registerSecret(secret);
});

afterAll(closeSecretChannels);

/**
 * Whether anything of `secret` is left in `out`: the secret in any form, or any 12
 * consecutive characters of any of its forms (half a secret is still a leak).
 */
function leaked(out: string, secret: string): boolean {
  if (new Redactor([secret]).holdsKnown(out)) return true;
  const texts = [skeleton(out).text, skeleton(out, "drop").text];
  return secretForms(secret).some((form) => {
    for (let k = 0; k + 12 <= form.length; k += 4) {
      if (texts.some((text) => text.includes(form.slice(k, k + 12)))) return true;
    }
    return false;
  });
}

describe(cases("secrets × forms × channels", TABLE.length), () => {
  it.each(TABLE)("%s: nothing of it leaves", async (_name, secret, encoded, write) => {
    const out = await write(encoded);
    expect(leaked(out, secret)).toBe(false);
  });

  it("a branch name or task id that holds a secret in any form is refused (each form)", () => {
    for (const secret of Object.values(SECRETS)) {
      for (const [, encode] of FORMS) {
        expect(holdsSecret(`cfa/1-${encode(secret)}`)).toBe(true);
      }
    }
    expect(holdsSecret("cfa/1-add-a-flag")).toBe(false);
  });

  it("positive control: the literal-only redactor of before lets most forms through", () => {
    const literal = (text: string, secret: string) =>
      [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)].reduce(
        (out, form) => out.split(form).join("[redacted]"),
        text,
      );
    const through = Object.values(SECRETS).flatMap((secret) =>
      FORMS.filter(([, encode]) => leaked(literal(encode(secret), secret), secret)),
    );
    expect(through.length).toBeGreaterThan((FORMS.length * 3) / 2);
  });

  it("positive control: cut before it is redacted, a secret's first characters leave", () => {
    const secret = SECRETS["an API key"];
    const cut = `${"w".repeat(490)}${secret}`.slice(0, 499);
    expect(new Redactor([secret]).redact(cut)).toContain(secret.slice(0, 9));
  });
});

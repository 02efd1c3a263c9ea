import { describe, expect, it } from "vitest";
import {
  isSecretVariable,
  looksLikeSecretValue,
  REDACTED,
  Redactor,
} from "../../../src/secrets/index.js";

// Shapes as GitHub documents them (prefix + [A-Za-z0-9_], 40 characters for the classic
// ones: https://github.blog/changelog/2021-03-31-authentication-token-format-updates-are-generally-available).
const SHAPED = {
  ghp: "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",
  gho: "gho_16C7e42F292c6912E7710c838347Ae178B4a",
  ghu: "ghu_16C7e42F292c6912E7710c838347Ae178B4a",
  ghs: "ghs_16C7e42F292c6912E7710c838347Ae178B4a",
  ghr: "ghr_1B4a2e77838347a7E420ce178F2E7c6912E169246c34E1ccbF66C46812d16D5B1A9Dc86A1498",
  pat: "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVW",
  v1: "v1.0123456789abcdef0123456789abcdef01234567",
  ant: "sk-ant-api03-AbCdEf0123456789_-xyzXYZ",
  admin: "sk-ant-admin01-AbCdEf0123456789",
  jwt: "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOjF9.c2lnbmF0dXJl",
};

const PEM = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH",
  "lWu2/a1gB9JW5TBQ+AVpum9Okx7KfqkfBKL9mcHgSL0yWMdjMfNOqNtrQqKlN4kE",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

describe("Redactor: what the bot writes never carries a secret", () => {
  it("replaces every token shape GitHub and Anthropic document (10 shapes), given or not", () => {
    const redactor = new Redactor();
    for (const [name, token] of Object.entries(SHAPED)) {
      expect(redactor.redact(`${name}: ${token}.`), name).toBe(`${name}: ${REDACTED}.`);
    }
  });

  it("replaces a token inside a URL, a header and JSON", () => {
    const r = new Redactor();
    expect(r.redact(`https://x-access-token:${SHAPED.ghs}@github.com/o/r`)).toBe(
      `https://${REDACTED}@github.com/o/r`,
    );
    expect(r.redact("Authorization: bearer abc.def")).toBe(`Authorization: bearer ${REDACTED}`);
    expect(r.redact(JSON.stringify({ token: SHAPED.ghp }))).toBe(`{"token":"${REDACTED}"}`);
  });

  it("replaces a private key block, and one an output cap cut short", () => {
    const r = new Redactor();
    expect(r.redact(`key:\n${PEM}\nafter`)).toBe(`key:\n${REDACTED}\nafter`);
    expect(r.redact(`key:\n${PEM.slice(0, 90)}`)).toBe(`key:\n${REDACTED}`);
  });

  it("replaces a known value anywhere, and its URL-encoded and JSON-escaped forms", () => {
    const secret = 'p@ss/word with "quotes" and\nnewline';
    const r = new Redactor([secret]);
    expect(r.redact(`a ${secret} b`)).toBe(`a ${REDACTED} b`);
    expect(r.redact(`?x=${encodeURIComponent(secret)}`)).toBe(`?x=${REDACTED}`);
    expect(r.redact(JSON.stringify({ x: secret }))).toBe(`{"x":"${REDACTED}"}`);
  });

  it("replaces any line of a registered private key: part of a key is as bad as all of it", () => {
    const r = new Redactor([PEM]);
    const line = PEM.split("\n")[2]!;
    expect(r.redact(`leaked ${line} here`)).toBe(`leaked ${REDACTED} here`);
    // A JSON-escaped key (as in an environment dump) is caught line by line too.
    expect(r.redact(JSON.stringify(PEM).slice(1, -1))).not.toContain(line);
  });

  it("replaces the longer of two overlapping secrets whole", () => {
    const r = new Redactor(["abcdefgh", "abcdefgh-and-more"]);
    expect(r.redact("x abcdefgh-and-more y abcdefgh")).toBe(`x ${REDACTED} y ${REDACTED}`);
  });

  it("reports how many it removed and where, never what", () => {
    const reports: [number, string][] = [];
    const r = new Redactor(["s3cret-value"], (count, where) => reports.push([count, where]));
    r.redact(`s3cret-value and ${SHAPED.ghs} and s3cret-value`, "a comment");
    r.redact("nothing here", "a comment");
    expect(reports).toEqual([[3, "a comment"]]);
    expect(JSON.stringify(reports)).not.toContain("s3cret");
  });

  it("does not count or re-redact what is already redacted", () => {
    const reports: number[] = [];
    const r = new Redactor([], (count) => reports.push(count));
    const once = r.redact(`Authorization: token ${SHAPED.ghs} https://u:p@h/`);
    expect(r.redact(once)).toBe(once);
    expect(reports).toEqual([2]);
  });

  it("leaves ordinary text, short values and look-alikes alone", () => {
    const r = new Redactor(["abc", undefined, ""]);
    const text = "issues.get failed (HTTP 404): abc; ghs_short; sk-ant-; ghp is a prefix; eyJ";
    expect(r.redact(text)).toBe(text);
    expect(r.size).toBe(0);
  });
});

describe("Redactor: parts of a secret, reversed and respelled", () => {
  const KEY = "sk-ant-api03-Q7w2Ertz9LkPm4XnB8vC";
  const r = new Redactor([KEY]);

  it("cuts any ten characters of it, and leaves nine", () => {
    expect(r.redact(`a ${KEY.slice(20, 30)} :`)).toBe(`a ${REDACTED} :`);
    expect(r.redact(`a ${KEY.slice(20, 29)} :`)).toBe(`a ${KEY.slice(20, 29)} :`);
  });

  it("keeps a mention of the public prefix every such key has, and cuts it with the rest", () => {
    const docs = "Keys start with sk-ant-api03- and are 108 characters long.";
    expect(r.redact(docs)).toBe(docs);
    expect(r.redact(`key=${KEY}`)).toBe(`key=${REDACTED}`);
    const hex = Buffer.from(KEY).toString("hex");
    expect(r.redact(`x ${hex} y`)).toBe(`x ${REDACTED} y`);
  });

  it("cuts it reversed, spelled out with separators, and in look-alike letters, separators and all", () => {
    const reversed = [...KEY].reverse().join("");
    expect(r.redact(`1 ${reversed} 2`)).toBe(`1 ${REDACTED} 2`);
    expect(r.redact(`1 ${[...KEY].join("-")} 2`)).toBe(`1 ${REDACTED} 2`);
    expect(r.redact(`1 ${JSON.stringify([...KEY])} 2`)).toBe(`1 ["${REDACTED}"] 2`);
    expect(r.redact(`1 ${KEY.replace(/e/g, "е")} 2`)).toBe(`1 ${REDACTED} 2`);
  });

  it("leaves runs and counts alone, and ordinary text with letters spelled out", () => {
    const counting = new Redactor(["token-0123456789-abcdefghij-zzzzzzzzzz"]);
    const text = "digits 0123456789, letters abcdefghij, z-z-z-z-z-z-z-z-z-z, a-b-c-d-e-f-g-h-i-j";
    expect(counting.redact(text)).toBe(text);
  });
});

describe("secret patterns", () => {
  it("learns from variables named like secrets, word by word", () => {
    const learnt = [
      "GITHUB_TOKEN",
      "ANTHROPIC_API_KEY",
      "WEBHOOK_SECRET",
      "PRIVATE_KEY",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_SESSION_TOKEN",
      "INPUT_GITHUB-TOKEN",
      "NPM_PASSWORD",
    ];
    const ignored = ["GIT_AUTHOR_EMAIL", "KEYBOARD", "PATH", "HOME", "MONKEY_BUSINESS", "CI"];
    expect(learnt.filter(isSecretVariable)).toEqual(learnt);
    expect(ignored.filter(isSecretVariable)).toEqual([]);
  });

  it("a value that merely starts like a token is kept from a command's environment", () => {
    expect(looksLikeSecretValue("https://x:ghp_a@h")).toBe(true);
    expect(looksLikeSecretValue("-----BEGIN OPENSSH PRIVATE KEY-----")).toBe(true);
    expect(looksLikeSecretValue("/usr/bin:/bin")).toBe(false);
  });
});

// A real RSA key for signing the GitHub App JWT in tests: generated in-process once per
// test process, so no key file is committed and none can leak.

import { generateKeyPairSync } from "node:crypto";

let key: string | undefined;

export function testPrivateKey(): string {
  key ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  }).privateKey;
  return key;
}

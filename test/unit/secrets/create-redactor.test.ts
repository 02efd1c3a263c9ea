import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../src/secrets/index.js";

describe("createRedactor", () => {
  const redact = createRedactor(["s3cret-value", undefined]);

  it("hides the secrets it was given", () => {
    expect(redact("before s3cret-value after")).toBe("before [redacted] after");
  });

  it("hides anything shaped like a GitHub token or JWT, given or not", () => {
    const text = [
      "ghs_16C7e42F292c6912E7710c838347Ae178B4a",
      "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
      "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOjF9.c2lnbmF0dXJl",
    ].join(" ");
    expect(redact(text)).toBe("[redacted] [redacted] [redacted] [redacted]");
  });

  it("hides the stateless installation token format ghs_<app id>_<JWT> whole", () => {
    const token = "ghs_123456_eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOjEyMzQ1Nn0.c2ln-bmF0_dXJl";
    expect(redact(`push with ${token}.`)).toBe("push with [redacted].");
  });

  it("reads a live list at every call: a token minted after the redactor was made is hidden", () => {
    const minted: string[] = [];
    const live = createRedactor(() => minted);
    expect(live("opaque-token-1")).toBe("opaque-token-1");
    minted.push("opaque-token-1");
    expect(live("opaque-token-1")).toBe("[redacted]");
  });

  it("hides Authorization header values and credentials in URLs", () => {
    expect(redact("Authorization: basic eC1hY2Nlc3M=")).toBe("Authorization: basic [redacted]");
    expect(redact("AUTHORIZATION: abc")).toBe("AUTHORIZATION: [redacted]");
    expect(redact("fatal: https://x-access-token:abc@github.com/o/r.git")).toBe(
      "fatal: https://[redacted]@github.com/o/r.git",
    );
  });

  it("leaves ordinary text alone", () => {
    expect(redact("issues.get failed (HTTP 404): Not Found")).toBe(
      "issues.get failed (HTTP 404): Not Found",
    );
  });
});

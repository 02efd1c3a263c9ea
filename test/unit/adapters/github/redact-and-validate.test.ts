import { describe, expect, it } from "vitest";
import {
  InvalidPushError,
  basicAuthHeader,
  basicCredentials,
  pushEnvironment,
  validatePush,
} from "../../../../src/adapters/github/index.js";
import { createRedactor } from "../../../../src/secrets/index.js";

const SHA = "6dcb09b5b57875f334f61aebed695e2e4193db5e";

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

describe("pushEnvironment", () => {
  const url = "https://github.com/octo-org/hello-world.git";

  it("passes the token as an http.extraHeader for the remote's URL through GIT_CONFIG_*", () => {
    const env = pushEnvironment({ PATH: "/bin", HOME: "/home/x" }, { url, token: "ghs_tok" });
    expect(env).toEqual({
      PATH: "/bin",
      HOME: "/home/x",
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_COUNT: "2",
      // An empty value first clears any header the clone carries for this URL.
      GIT_CONFIG_KEY_0: `http.${url}.extraHeader`,
      GIT_CONFIG_VALUE_0: "",
      GIT_CONFIG_KEY_1: `http.${url}.extraHeader`,
      GIT_CONFIG_VALUE_1: basicAuthHeader("ghs_tok"),
    });
    expect(basicAuthHeader("ghs_tok")).toBe(
      `AUTHORIZATION: basic ${Buffer.from("x-access-token:ghs_tok").toString("base64")}`,
    );
    expect(basicCredentials("ghs_tok")).toBe(
      Buffer.from("x-access-token:ghs_tok").toString("base64"),
    );
  });

  it("drops inherited git variables (simple-git would refuse them) and sets no header without a token", () => {
    const env = pushEnvironment(
      { PATH: "/bin", GIT_DIR: "/elsewhere", GIT_CONFIG_COUNT: "3", EDITOR: "vim", Pager: "less" },
      undefined,
    );
    expect(env).toEqual({ PATH: "/bin", GIT_TERMINAL_PROMPT: "0" });
  });

  it("sends no header to a remote that is not http(s)", () => {
    const env = pushEnvironment({}, { url: "/srv/git/remote.git", token: "ghs_tok" });
    expect(env).toEqual({ GIT_TERMINAL_PROMPT: "0" });
  });
});

describe("validatePush", () => {
  it("accepts job and task branches with full commit ids", () => {
    expect(() => validatePush("cfa/12", { sha: SHA, expectedOld: null })).not.toThrow();
    expect(() => validatePush("cfa/12-t3", { sha: SHA, expectedOld: SHA })).not.toThrow();
  });

  it.each([
    ["--upload-pack=evil", "starts with '-'"],
    ["a..b", "'..'"],
    ["a b", "space"],
    ["x:y", "space, a control character"],
    ["cfa/.hidden", "starts with '.'"],
    ["cfa/1.lock", ".lock"],
    ["", "empty"],
  ])("refuses the branch name %j", (branch, why) => {
    expect(() => validatePush(branch, { sha: SHA, expectedOld: null })).toThrow(InvalidPushError);
    expect(() => validatePush(branch, { sha: SHA, expectedOld: null })).toThrow(why);
  });

  it("refuses anything but a full commit id", () => {
    expect(() => validatePush("cfa/1", { sha: "HEAD", expectedOld: null })).toThrow(/sha "HEAD"/);
    expect(() => validatePush("cfa/1", { sha: SHA, expectedOld: "6dcb09b" })).toThrow(
      /expectedOld "6dcb09b" is not a full commit id/,
    );
  });
});

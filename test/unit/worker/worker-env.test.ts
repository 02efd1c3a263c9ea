import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/index.js";
import { parseWorkerEnv } from "../../../src/worker/worker-env.js";

describe("the worker's environment", () => {
  it("reads the Actions variables, with defaults for the optional ones", () => {
    const env = parseWorkerEnv({
      GITHUB_REPOSITORY: "octo-org/hello-world",
      GITHUB_TOKEN: "ghs_secretsecretsecret",
      RUNNER_TEMP: "/tmp/runner",
      CFA_JOB: "",
    });
    expect(env).toMatchObject({
      owner: "octo-org",
      repo: "hello-world",
      credentials: { kind: "token", token: "ghs_secretsecretsecret" },
      GITHUB_API_URL: "https://api.github.com",
      CFA_BOT_LOGIN: "github-actions[bot]",
      RUNNER_TEMP: "/tmp/runner",
    });
    // Actions passes an unset input as "": that is no job, not a bad one.
    expect(env.CFA_JOB).toBeUndefined();
  });

  it("names every missing or bad variable and never echoes a value", () => {
    let error: unknown;
    try {
      parseWorkerEnv({ GITHUB_REPOSITORY: "not a repo sk-ant-SECRET", CFA_JOB: "twelve" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain("GITHUB_REPOSITORY: expected owner/repo");
    expect(message).toContain("CFA_JOB: expected an issue number");
    expect(message).toContain("GITHUB_TOKEN: must be set");
    expect(message).not.toContain("sk-ant-SECRET");
    expect(message).not.toContain("twelve");
  });

  it("with APP_ID and PRIVATE_KEY the worker acts as the app; a key pasted with \\n is a PEM again", () => {
    const env = parseWorkerEnv({
      GITHUB_REPOSITORY: "octo-org/hello-world",
      GITHUB_TOKEN: "ghs_workflowtokenworkflow",
      APP_ID: "1234",
      PRIVATE_KEY: "-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----",
      CFA_INSTALLATION_ID: "42",
    });
    expect(env.credentials).toEqual({
      kind: "app",
      appId: 1234,
      privateKey: "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----",
      installationId: 42,
      owner: "octo-org",
      repo: "hello-world",
    });
  });

  it("a key given as base64 of the PEM (as Probot accepts) is a PEM again", () => {
    const key = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----";
    const env = parseWorkerEnv({
      GITHUB_REPOSITORY: "o/r",
      APP_ID: "7",
      PRIVATE_KEY: Buffer.from(key).toString("base64"),
    });
    expect(env.credentials).toMatchObject({ kind: "app", privateKey: key });
  });

  it("one half of the app's credentials is named as missing, and no token is needed with both", () => {
    expect(() => parseWorkerEnv({ GITHUB_REPOSITORY: "o/r", APP_ID: "1234" })).toThrow(
      /PRIVATE_KEY: must be set too: acting as the app needs both APP_ID and PRIVATE_KEY/,
    );
    expect(
      parseWorkerEnv({ GITHUB_REPOSITORY: "o/r", APP_ID: "1", PRIVATE_KEY: "k" }).credentials.kind,
    ).toBe("app");
  });
});

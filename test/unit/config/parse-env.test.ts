// The process settings (Probot's placeholder secret "development": the app refuses to
// start without a real one). Messages name the variable and never its value.

import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "../../../src/config/index.js";

const SECRET = "s3cr3t-value-that-must-not-leak";

const refusal = (env: Record<string, string | undefined>, app = false): ConfigError => {
  try {
    parseEnv(env, { app });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected parseEnv to throw");
};

const leaks = (error: ConfigError, value: string) =>
  [error.message, String(error), error.stack ?? "", JSON.stringify(error), inspect(error)].some(
    (text) => text.includes(value),
  );

describe("parseEnv", () => {
  it("needs nothing outside the app, and logs at info by default", () => {
    expect(parseEnv({})).toEqual({ CFA_LOG_LEVEL: "info" });
  });

  it("reads every setting and ignores the rest of the environment", () => {
    expect(
      parseEnv(
        {
          ANTHROPIC_API_KEY: "sk-ant-x",
          GITHUB_TOKEN: "ghs_x",
          WEBHOOK_SECRET: SECRET,
          APP_ID: "12345",
          PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----\n...",
          CFA_LOG_LEVEL: "DEBUG",
          PATH: "/usr/bin",
        },
        { app: true },
      ),
    ).toEqual({
      ANTHROPIC_API_KEY: "sk-ant-x",
      GITHUB_TOKEN: "ghs_x",
      WEBHOOK_SECRET: SECRET,
      APP_ID: 12345,
      PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----\n...",
      CFA_LOG_LEVEL: "debug",
    });
  });

  it("treats a blank variable as unset (Actions passes a missing secret as empty)", () => {
    expect(parseEnv({ ANTHROPIC_API_KEY: "", GITHUB_TOKEN: "  ", CFA_LOG_LEVEL: "" })).toEqual({
      CFA_LOG_LEVEL: "info",
    });
  });

  it.each([
    ["missing", {}],
    ["empty", { WEBHOOK_SECRET: "" }],
    ["blank", { WEBHOOK_SECRET: "   " }],
  ])("refuses to run the app with the webhook secret %s", (_, env) => {
    const error = refusal(env, true);
    expect(error.name).toBe("ConfigError");
    expect(error.source).toBe("environment");
    expect(error.issues.map((i) => i.path)).toEqual(["WEBHOOK_SECRET"]);
    expect(error.message).toMatch(
      /^cfa\/config: environment is not valid: WEBHOOK_SECRET: must be set/,
    );
  });

  it.each([true, false])('refuses Probot\'s placeholder secret "development" (app: %s)', (app) => {
    const error = refusal({ WEBHOOK_SECRET: "development" }, app);
    expect(error.issues.map((i) => i.path)).toEqual(["WEBHOOK_SECRET"]);
    expect(error.message).toContain("WEBHOOK_SECRET: is Probot's insecure placeholder");
    expect(leaks(error, "development")).toBe(false);
  });

  it("refuses an APP_ID that is not a number, without quoting it", () => {
    const error = refusal({ APP_ID: "my-app-0xDEADBEEF", WEBHOOK_SECRET: SECRET });
    expect(error.issues).toEqual([
      { path: "APP_ID", message: "APP_ID: expected the GitHub App's numeric id" },
    ]);
    expect(leaks(error, "0xDEADBEEF")).toBe(false);
  });

  it("reports a missing secret alongside other bad variables", () => {
    const error = refusal({ CFA_LOG_LEVEL: "loud" }, true);
    expect(error.issues.map((i) => i.path).sort()).toEqual(["CFA_LOG_LEVEL", "WEBHOOK_SECRET"]);
  });

  it("refuses an unknown log level, listing the known ones", () => {
    const error = refusal({ CFA_LOG_LEVEL: "verbose" });
    expect(error.issues).toEqual([
      { path: "CFA_LOG_LEVEL", message: "CFA_LOG_LEVEL: expected one of debug, info, warn, error" },
    ]);
  });

  it("reports every bad variable at once and echoes no value in any of them", () => {
    const env = {
      WEBHOOK_SECRET: "development",
      APP_ID: SECRET,
      CFA_LOG_LEVEL: `${SECRET}-level`,
      ANTHROPIC_API_KEY: SECRET,
      PRIVATE_KEY: SECRET,
    };
    const error = refusal(env, true);
    expect(error.issues.map((i) => i.path).sort()).toEqual([
      "APP_ID",
      "CFA_LOG_LEVEL",
      "WEBHOOK_SECRET",
    ]);
    expect(leaks(error, SECRET)).toBe(false);
  });
});

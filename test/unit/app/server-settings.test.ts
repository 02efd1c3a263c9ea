import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { serverSettings } from "../../../src/app/server-settings.js";
import { ConfigError } from "../../../src/config/index.js";

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
const PEM = privateKey.export({ type: "pkcs1", format: "pem" }).toString();

function refusal(env: Record<string, string | undefined>): string {
  try {
    serverSettings(env, () => {
      throw new Error("ENOENT");
    });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the server to refuse");
}

describe("the webhook server refuses to start without what it needs", () => {
  it("without a webhook secret, or with Probot's placeholder", () => {
    expect(refusal({ APP_ID: "1", PRIVATE_KEY: PEM })).toContain("WEBHOOK_SECRET: must be set");
    const placeholder = refusal({ APP_ID: "1", PRIVATE_KEY: PEM, WEBHOOK_SECRET: "development" });
    expect(placeholder).toContain("insecure placeholder");
    expect(placeholder).not.toContain("BEGIN");
  });

  it("without the app's id or key (Probot would start its setup mode)", () => {
    expect(refusal({ WEBHOOK_SECRET: "s3cret", PRIVATE_KEY: PEM })).toContain(
      "APP_ID: must be set",
    );
    expect(refusal({ WEBHOOK_SECRET: "s3cret", APP_ID: "1" })).toContain(
      "PRIVATE_KEY: must be set",
    );
    expect(
      refusal({ WEBHOOK_SECRET: "s3cret", APP_ID: "1", PRIVATE_KEY_PATH: "/nope.pem" }),
    ).toContain("PRIVATE_KEY_PATH: cannot read");
    expect(refusal({ WEBHOOK_SECRET: "s3cret", APP_ID: "1", PRIVATE_KEY: "hunter2" })).toContain(
      "PRIVATE_KEY: is not a PEM private key",
    );
  });

  it("starts with a secret, an id and a key given as PEM, one line with \\n, or base64", () => {
    const base = { WEBHOOK_SECRET: "s3cret", APP_ID: "42" };
    for (const key of [PEM, PEM.replace(/\n/g, "\\n"), Buffer.from(PEM).toString("base64")]) {
      const settings = serverSettings({ ...base, PRIVATE_KEY: key });
      expect(settings).toMatchObject({
        appId: 42,
        secret: "s3cret",
        host: "0.0.0.0",
        port: 3000,
        webhookPath: "/api/github/webhooks",
      });
      expect(settings.privateKey).toBe(PEM.trim());
    }
    expect(
      serverSettings({ ...base, PRIVATE_KEY_PATH: "/k.pem", PORT: "8080" }, () => PEM),
    ).toMatchObject({
      port: 8080,
      privateKey: PEM.trim(),
    });
  });
});

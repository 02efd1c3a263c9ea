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
    // The id that is set is not called missing beside the placeholder secret.
    const idSet = refusal({ APP_ID: "123456", WEBHOOK_SECRET: "development" });
    expect(idSet).not.toContain("APP_ID");
    expect(idSet).toContain("WEBHOOK_SECRET: is Probot's insecure placeholder");
  });

  it("with nothing set, names every missing variable in one message, not one group at a time", () => {
    const message = refusal({ PORT: "not-a-port" });
    for (const name of ["WEBHOOK_SECRET", "APP_ID", "PRIVATE_KEY", "PORT"]) {
      expect(message).toContain(`${name}: `);
    }
    // A bad APP_ID is named once, as bad, not also as missing.
    const badId = refusal({ APP_ID: "abc" });
    expect(badId).toContain("APP_ID: expected the GitHub App's numeric id");
    expect(badId).not.toContain("APP_ID: must be set");
    expect(badId).toContain("WEBHOOK_SECRET: must be set");
    expect(badId).toContain("PRIVATE_KEY: must be set");
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

describe("GitHub Enterprise Server: GHE_HOST and GHE_PROTOCOL, as Probot's run() reads them", () => {
  const base = { WEBHOOK_SECRET: "s3cret", APP_ID: "42", PRIVATE_KEY: PEM };

  it("github.com's API by default; https://GHE_HOST/api/v3 with a host; http when asked", () => {
    expect(serverSettings(base).baseUrl).toBe("https://api.github.com");
    expect(serverSettings({ ...base, GHE_HOST: "github.acme-inc.com" }).baseUrl).toBe(
      "https://github.acme-inc.com/api/v3",
    );
    expect(
      serverSettings({ ...base, GHE_HOST: "ghe.internal:8443", GHE_PROTOCOL: "http" }).baseUrl,
    ).toBe("http://ghe.internal:8443/api/v3");
    expect(serverSettings({ ...base, GHE_HOST: " ", GHE_PROTOCOL: "" }).baseUrl).toBe(
      "https://api.github.com",
    );
  });

  it("a URL or a path in GHE_HOST, or another protocol, is refused with the variable named", () => {
    expect(refusal({ ...base, GHE_HOST: "https://github.acme-inc.com" })).toContain(
      "GHE_HOST: must be the GitHub Enterprise Server's host name",
    );
    expect(refusal({ ...base, GHE_HOST: "github.acme-inc.com/api/v3" })).toContain("GHE_HOST");
    expect(refusal({ ...base, GHE_HOST: "ghe", GHE_PROTOCOL: "ftp" })).toContain(
      'GHE_PROTOCOL: must be "https" (the default) or "http"',
    );
  });
});

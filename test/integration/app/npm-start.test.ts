// `npm start` starts the webhook server, as Probot apps start (issue 10 §3): the built
// entry point (dist/app/server.js, built by `npm ci` through `prepare`) answers Probot's
// /ping, and stops cleanly on SIGTERM, the signal `docker stop` sends.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { testPrivateKey } from "../../support/github/index.js";
import { freePort } from "../../support/github/signed-delivery.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function npmStart(env: Record<string, string>) {
  if (!existsSync(`${ROOT}dist/app/server.js`)) {
    throw new Error("dist/app/server.js is missing: run `npm run build` first");
  }
  const child = spawn("npm", ["start", "--silent"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}

describe("npm start", () => {
  it("starts the server, which answers /ping, and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const server = npmStart({
      APP_ID: "1",
      PRIVATE_KEY: testPrivateKey(),
      WEBHOOK_SECRET: "npm-start-test",
      HOST: "127.0.0.1",
      PORT: String(port),
      GHE_HOST: "127.0.0.1:9",
      GHE_PROTOCOL: "http",
    });
    try {
      let pong = "";
      for (let i = 0; i < 400 && pong === ""; i += 1) {
        pong = await fetch(`http://127.0.0.1:${port}/ping`)
          .then((r) => r.text())
          .catch(() => new Promise<string>((resolve) => setTimeout(() => resolve(""), 50)));
      }
      expect(pong).toBe("PONG");
      server.child.kill("SIGTERM");
      // npm forwards the signal to the server, then ends by the same signal itself.
      expect(await server.exited).toSatisfy(
        (e: { code: number | null; signal: string | null }) =>
          e.code === 0 || e.signal === "SIGTERM",
      );
      expect(server.output()).not.toContain("could not stop cleanly");
    } finally {
      server.child.kill("SIGKILL");
    }
  }, 30_000);

  it("without a webhook secret it refuses to start, naming the variable and no value", async () => {
    const server = npmStart({ APP_ID: "1", PRIVATE_KEY: testPrivateKey() });
    expect((await server.exited).code).toBe(1);
    expect(server.output()).toContain("WEBHOOK_SECRET: must be set");
    expect(server.output()).not.toContain("BEGIN");
  }, 30_000);
});

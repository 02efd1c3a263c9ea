// `npm start` starts the webhook server, as Probot apps start: the built entry point
// (dist/app/server.js, built by `npm ci` through `prepare`) answers Probot's /ping, and stops
// cleanly on SIGTERM, the signal `docker stop` sends.
//
// npm runs a script through `sh -c` (npm docs, npm-run-script: "script-shell", /bin/sh on Unix) and
// forwards SIGINT and SIGTERM only to that shell (@npmcli/run-script, lib/signal-manager.js); dash,
// Debian's sh, does not pass them on to its child (npm/cli#5776), so without `exec` in the script
// the server outlived npm. The test finds the server's own process and checks it is gone (npm's own
// exit proves nothing).

import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { testPrivateKey } from "../../support/github/index.js";
import { freePort } from "../../support/github/signed-delivery.js";
import { bound } from "../../support/time-bound.js";

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

/** Processes below `pid` (Linux /proc), depth first. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter((p) => p !== "")
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** True for `node dist/app/server.js` itself, not the `sh -c` npm runs it through. */
function isServer(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return /(^|\/)node$/.test(argv[0] ?? "") && argv[1] === "dist/app/server.js";
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    // A zombie still answers kill(0); its state in /proc/<pid>/stat is Z.
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("npm start", () => {
  it(
    "starts the server, which answers /ping, and stops cleanly on SIGTERM",
    async () => {
      const port = await freePort();
      const server = npmStart({
        APP_ID: "1",
        PRIVATE_KEY: testPrivateKey(),
        WEBHOOK_SECRET: "npm-start-test",
        HOST: "127.0.0.1",
        PORT: String(port),
        GHE_HOST: "127.0.0.1:9",
        GHE_PROTOCOL: "http",
        LOG_FORMAT: "json",
      });
      let serverPid: number | undefined;
      try {
        let pong = "";
        for (let i = 0; i < 400 && pong === ""; i += 1) {
          pong = await fetch(`http://127.0.0.1:${port}/ping`)
            .then((r) => r.text())
            .catch(() => new Promise<string>((resolve) => setTimeout(() => resolve(""), 50)));
        }
        expect(pong).toBe("PONG");
        serverPid = descendants(server.child.pid!).find(isServer);
        expect(serverPid, "the server's node process under npm").toBeDefined();
        server.child.kill("SIGTERM");
        // npm forwards the signal to the server, then ends by the same signal itself.
        expect(await server.exited).toSatisfy(
          (e: { code: number | null; signal: string | null }) =>
            e.code === 0 || e.signal === "SIGTERM",
        );
        expect(server.output()).not.toContain("could not stop cleanly");
        // Each JSON line is one object with one "name" (a child's `name` binding repeated it),
        // and the stop is said: a log that ends says why.
        const lines = server
          .output()
          .split("\n")
          .filter((l) => l.startsWith("{"));
        for (const line of lines) expect(line.match(/"name":/g) ?? [], line).toHaveLength(1);
        const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
        expect(messages).toContainEqual(expect.stringMatching(/^cfa\/app: SIGTERM: stopping/));
        expect(messages).toContain("cfa/app: stopped on SIGTERM");
        // The server itself stopped, not only npm: nothing answers on its port any more.
        for (let i = 0; i < 100 && alive(serverPid!); i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(alive(serverPid!), `server process ${serverPid} still running`).toBe(false);
        expect(
          await fetch(`http://127.0.0.1:${port}/ping`).then(
            () => "answered",
            () => "gone",
          ),
        ).toBe("gone");
      } finally {
        server.child.kill("SIGKILL");
        if (serverPid !== undefined && alive(serverPid)) process.kill(serverPid, "SIGKILL");
      }
    },
    bound(30_000),
  );

  it(
    "without a webhook secret it refuses to start, naming the variable and no value",
    async () => {
      const server = npmStart({ APP_ID: "1", PRIVATE_KEY: testPrivateKey() });
      expect((await server.exited).code).toBe(1);
      expect(server.output()).toContain("WEBHOOK_SECRET: must be set");
      expect(server.output()).not.toContain("BEGIN");
    },
    bound(30_000),
  );

  it(
    "with nothing set it names every missing variable in one message",
    async () => {
      const server = npmStart({});
      expect((await server.exited).code).toBe(1);
      const lines = server
        .output()
        .split("\n")
        .filter((line) => line.includes("must be set"));
      expect(lines).toHaveLength(1);
      for (const name of ["WEBHOOK_SECRET", "APP_ID", "PRIVATE_KEY"]) {
        expect(lines[0]).toContain(`${name}: must be set`);
      }
    },
    bound(30_000),
  );
});

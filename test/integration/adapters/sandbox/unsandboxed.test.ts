import { realpath, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxRequestError } from "../../../../src/adapters/sandbox/errors.js";
import { createUnsandboxed } from "../../../../src/adapters/sandbox/unsandboxed.js";
import type { CommandRequest } from "../../../../src/ports/sandbox.js";
import {
  markerSeconds,
  waitUntilGone,
  commandRequest,
} from "../../../support/sandbox/sandbox-fixtures.js";

// Sandbox mode `off`: no containment, but the same cwd, env, limits and abort.
const sandbox = createUnsandboxed();
let ws: string;

beforeAll(async () => {
  ws = await realpath(await mkdtemp(path.join(os.tmpdir(), "cfa-unsandboxed-")));
});
afterAll(async () => {
  await rm(ws, { recursive: true, force: true });
});

const request = (argv: string[], more: Partial<CommandRequest> = {}) =>
  commandRequest(ws, argv, more);

describe("unsandboxed (sandbox: off)", () => {
  it("is kind none", () => {
    expect(sandbox.kind).toBe("none");
  });

  it("runs in the workspace with exactly the request's environment", async () => {
    const saved = process.env.GITHUB_TOKEN;
    process.env.GITHUB_TOKEN = "ghs_parentparentparentparent";
    try {
      const result = await sandbox.run(request(["sh", "-c", "pwd; env; echo made > here.txt"]));
      expect(result.exitCode).toBe(0);
      const [pwd, ...env] = result.stdout.split("\n").filter(Boolean);
      expect(pwd).toBe(ws);
      expect(env.map((line) => line.split("=")[0]).sort()).toEqual(["HOME", "PATH", "PWD"]);
      expect(result.stdout).not.toContain("ghs_");
      expect(await readFile(path.join(ws, "here.txt"), "utf8")).toBe("made\n");
    } finally {
      if (saved === undefined) delete process.env.GITHUB_TOKEN;
      else process.env.GITHUB_TOKEN = saved;
    }
  });

  it("does not interpret argv through a shell", async () => {
    const result = await sandbox.run(request(["echo", "$HOME; rm -rf /"]));
    expect(result.stdout).toBe("$HOME; rm -rf /\n");
  });

  it("passes the exit code and stderr through", async () => {
    const result = await sandbox.run(request(["sh", "-c", "echo oops >&2; exit 7"]));
    expect(result).toMatchObject({
      exitCode: 7,
      signal: null,
      stderr: "oops\n",
      timedOut: false,
      truncated: false,
    });
  });

  it("answers a missing program like a shell: exit 127", async () => {
    const result = await sandbox.run(request(["no-such-program-cfa"]));
    expect(result.exitCode).toBe(127);
    expect(result.stderr).toContain("no-such-program-cfa");
  });

  it("the time limit kills the whole process group, background children included", async () => {
    const marker = markerSeconds();
    const result = await sandbox.run(
      request(["sh", "-c", `sleep ${marker} & sleep ${marker}`], { timeoutMs: 500 }),
    );
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe("SIGKILL");
    expect(result.durationMs).toBeLessThan(30_000); // killed, not finished
    expect(await waitUntilGone(marker)).toEqual([]);
  });

  it("caps each stream and decodes UTF-8 without a broken last character", async () => {
    const result = await sandbox.run(
      request(["sh", "-c", "printf 'ab€€€'; printf 'xyz' >&2"], { maxOutputBytes: 4 }),
    );
    expect(result.stdout).toBe("ab");
    expect(result.stderr).toBe("xyz");
    expect(result.truncated).toBe(true);
  });

  it("an abort signal kills the command and rejects", async () => {
    const marker = markerSeconds();
    const controller = new AbortController();
    const running = sandbox.run(request(["sleep", marker]), { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(running).rejects.toMatchObject({ name: "AbortError" });
    expect(await waitUntilGone(marker)).toEqual([]);
  });

  it("an already-aborted signal runs nothing", async () => {
    const controller = new AbortController();
    controller.abort(new Error("withdrawn before start"));
    await expect(
      sandbox.run(request(["touch", "never.txt"]), { signal: controller.signal }),
    ).rejects.toThrow("withdrawn before start");
    await expect(readFile(path.join(ws, "never.txt"))).rejects.toThrow();
  });

  it.each([
    [{ argv: [] }, "argv"],
    [{ cwd: "relative/dir" }, "cwd"],
    [{ cwd: "/nonexistent/cfa" }, "cwd"],
    [{ timeoutMs: 0 }, "timeoutMs"],
    [{ maxOutputBytes: -1 }, "maxOutputBytes"],
    [{ env: { "A=B": "x" } }, "env"],
  ] as const)("refuses a malformed request %j", async (change, field) => {
    const error = await sandbox
      .run({ ...request(["true"]), ...change } as CommandRequest)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxRequestError);
    expect((error as SandboxRequestError).field).toBe(field);
    expect((error as Error).message).toMatch(/^cfa\/sandbox: invalid command request: /);
  });
});

import { describe, expect, it } from "vitest";
import { CommandRefusedError } from "../../../../src/agents/commands/errors.js";
import { runCommand } from "../../../../src/agents/commands/run-command.js";
import type { CommandRequest, CommandResult, Sandbox } from "../../../../src/ports/sandbox.js";

function recordingSandbox(): Sandbox & { requests: CommandRequest[] } {
  const requests: CommandRequest[] = [];
  return {
    kind: "bwrap",
    requests,
    start: () => Promise.reject(new Error("test: no long-lived process here")),
    run(request): Promise<CommandResult> {
      requests.push(request);
      return Promise.resolve({
        exitCode: 0,
        signal: null,
        stdout: "ok\n",
        stderr: "",
        timedOut: false,
        truncated: false,
        durationMs: 1,
      });
    },
  };
}

const role = { allowedCommands: ["git", "ls"], extraEnv: ["NODE_OPTIONS"] };
const parentEnv = {
  PATH: "/usr/bin:/bin",
  HOME: "/root",
  GITHUB_TOKEN: "ghs_16C7e42F292c6912E7710c838347Ae178B4a",
  NODE_OPTIONS: "--trace-warnings",
};

describe("runCommand: policy first, then the sandbox", () => {
  it("refuses a command outside the allowlist without reaching the sandbox", async () => {
    const sandbox = recordingSandbox();
    await expect(
      runCommand({
        sandbox,
        argv: ["rm", "-rf", "/"],
        workspaceRoot: "/ws",
        role,
        env: parentEnv,
        timeoutMs: 1000,
        maxOutputBytes: 100,
      }),
    ).rejects.toBeInstanceOf(CommandRefusedError);
    expect(sandbox.requests).toEqual([]);
  });

  it("hands the sandbox the workspace as cwd, a reduced env and the role's network choice", async () => {
    const sandbox = recordingSandbox();
    const result = await runCommand({
      sandbox,
      argv: ["git", "status"],
      workspaceRoot: "/ws",
      role,
      env: parentEnv,
      timeoutMs: 1234,
      maxOutputBytes: 99,
    });
    expect(result.stdout).toBe("ok\n");
    expect(sandbox.requests).toEqual([
      {
        argv: ["git", "status"],
        cwd: "/ws",
        env: {
          PATH: "/usr/bin:/bin",
          HOME: "/ws",
          NODE_OPTIONS: "--trace-warnings",
          // npm's registry check for its own update: a wasted request, useless in the sandbox.
          npm_config_update_notifier: "false",
        },
        timeoutMs: 1234,
        maxOutputBytes: 99,
        network: false,
      },
    ]);
  });

  it("leaves npm's update check as the role's environment sets it, when it does", async () => {
    const sandbox = recordingSandbox();
    await runCommand({
      sandbox,
      argv: ["npm", "test"],
      workspaceRoot: "/ws",
      role: { allowedCommands: ["npm"], extraEnv: ["npm_config_update_notifier"] },
      env: { ...parentEnv, npm_config_update_notifier: "true" },
      timeoutMs: 1234,
      maxOutputBytes: 99,
    });
    expect(sandbox.requests[0]?.env.npm_config_update_notifier).toBe("true");
  });

  it("asks for the network only when the role allows it", async () => {
    const sandbox = recordingSandbox();
    await runCommand({
      sandbox,
      argv: ["ls"],
      workspaceRoot: "/ws",
      role: { allowedCommands: ["ls"], network: true },
      env: {},
      timeoutMs: 1000,
      maxOutputBytes: 10,
    });
    expect(sandbox.requests[0]?.network).toBe(true);
  });
});

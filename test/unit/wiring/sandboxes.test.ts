// The process's sandboxes: a wake's configuration starts making the bubblewrap one, so its
// first command does not wait for the bwrap probe and the toolchain walk; it is the very
// sandbox that command gets, made once, and a failure reaches the command, not the process.

import { describe, expect, it } from "vitest";
import { defaultConfig, type CfaConfig } from "../../../src/config/index.js";
import { noopLogger } from "../../../src/ports/logger.js";
import type { Sandbox } from "../../../src/ports/sandbox.js";
import { sandboxesHiding } from "../../../src/wiring/sandboxes.js";

function counting(result: () => Promise<Sandbox>) {
  const calls: { mode: string; readOnlyPaths: readonly string[] }[] = [];
  const create = (mode: string, options: { readOnlyPaths?: readonly string[] } = {}) => {
    calls.push({ mode, readOnlyPaths: options.readOnlyPaths ?? [] });
    return result();
  };
  return { calls, create: create as Parameters<typeof sandboxesHiding>[2] };
}

const fake = { kind: "bwrap" } as Sandbox;

function config(sandbox: CfaConfig["sandbox"], readOnlyPaths: string[] = []): CfaConfig {
  return { ...defaultConfig(), sandbox, sandboxReadOnlyPaths: readOnlyPaths };
}

describe("sandboxesHiding", () => {
  it("starts the bubblewrap sandbox at configure, and the first command gets that one", async () => {
    const { calls, create } = counting(() => Promise.resolve(fake));
    const sandboxes = sandboxesHiding("/work", noopLogger, create);
    sandboxes.configure(config("require", ["/opt/tools"]));
    expect(calls).toEqual([{ mode: "require", readOnlyPaths: ["/opt/tools"] }]);
    expect(await sandboxes.sandbox("require")).toBe(fake);
    expect(calls).toHaveLength(1);
  });

  it("never makes mode off early: whether it may be made is judged when a command asks", async () => {
    const { calls, create } = counting(() => Promise.resolve(fake));
    const sandboxes = sandboxesHiding("/work", noopLogger, create);
    sandboxes.configure(config("off"));
    expect(calls).toEqual([]);
    await sandboxes.sandbox("off");
    expect(calls).toEqual([{ mode: "off", readOnlyPaths: [] }]);
  });

  it("keeps a failure for the command that asks, with no unhandled rejection meanwhile", async () => {
    const failure = new Error("bwrap cannot create a namespace");
    const { calls, create } = counting(() => Promise.reject(failure));
    const sandboxes = sandboxesHiding("/work", noopLogger, create);
    sandboxes.configure(config("require"));
    // A tick for an unhandled rejection to surface (vitest fails the file on one).
    await new Promise((resolve) => setImmediate(resolve));
    await expect(sandboxes.sandbox("require")).rejects.toBe(failure);
    expect(calls).toHaveLength(1);
  });
});

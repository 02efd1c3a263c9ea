import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, isSandboxMode } from "../../../../src/adapters/sandbox/create-sandbox.js";
import { SandboxUnavailableError } from "../../../../src/adapters/sandbox/errors.js";
import { rejectionOf } from "../../../support/rejection-of.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "cfa-sandbox-unit-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A stand-in bwrap: answers --version, then fails the trial sandbox like AppArmor does. */
async function fakeBwrap(name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

/** Why createSandbox refuses to start with these options. */
const refusal = (...args: Parameters<typeof createSandbox>) =>
  rejectionOf(createSandbox(...args), SandboxUnavailableError);

/** A PATH look-up that finds bwrap at this path, or nowhere. */
const finding = (bwrap: string | null) => () => Promise.resolve(bwrap);

describe("createSandbox: require means bubblewrap or an error, never a silent fallback", () => {
  it("throws SandboxUnavailableError when bwrap is missing", async () => {
    const error = await refusal("require", { which: finding(null) });
    expect(error.name).toBe("SandboxUnavailableError");
    expect(error.reason).toBe("missing");
    expect(error.message).toBe(
      "cfa/sandbox: bubblewrap (bwrap) is required to run commands; install the Debian/Ubuntu package `bubblewrap`, or set `sandbox: off` in .github/cfa.yml to run commands uncontained",
    );
  });

  it("treats require as the default mode", async () => {
    const error = await refusal(undefined, { which: finding(null) });
    expect(error.reason).toBe("missing");
  });

  it("finds no bwrap on an empty PATH", async () => {
    const error = await refusal("require", { searchPath: dir });
    expect(error.reason).toBe("missing");
  });

  it("reports a bwrap that cannot create namespaces, and points at the AppArmor sysctl", async () => {
    const bwrap = await fakeBwrap(
      "bwrap-restricted",
      'if [ "$1" = --version ]; then echo "bubblewrap 0.9.0"; exit 0; fi\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1',
    );
    const error = await refusal("require", { which: finding(bwrap) });
    expect(error.reason).toBe("unusable");
    expect(error.bwrapPath).toBe(bwrap);
    expect(error.detail).toContain("setting up uid map: Permission denied");
    expect(error.message).toContain("user namespaces may be disabled");
    expect(error.message).toContain("GitHub's Ubuntu 24.04 runners restrict them via AppArmor");
    expect(error.message).toContain("sysctl -w kernel.apparmor_restrict_unprivileged_userns=0");
    expect(error.message).toContain("`sandbox: off`");
  });

  it("refuses to run commands without prlimit, which applies the per-command limits", async () => {
    const bwrap = await fakeBwrap("bwrap-fine", 'echo "bubblewrap 0.8.0"');
    const error = await refusal("require", { which: finding(bwrap), systemBin: dir });
    expect(error.reason).toBe("no-prlimit");
    expect(error.message).toContain("util-linux's prlimit is required");
    expect(error.message).toContain("`sandbox: off`");
  });

  it("reports a bwrap whose --version fails", async () => {
    const bwrap = await fakeBwrap("bwrap-broken", 'echo "bwrap: broken" >&2\nexit 2');
    const error = await refusal("require", { which: finding(bwrap) });
    expect(error.reason).toBe("unusable");
    expect(error.detail).toMatch(/--version failed with exit 2: bwrap: broken/);
  });

  it("returns the unsandboxed runner for off, without looking for bwrap", async () => {
    let looked = false;
    const sandbox = await createSandbox("off", {
      which: () => {
        looked = true;
        return Promise.resolve(null);
      },
    });
    expect(sandbox.kind).toBe("none");
    expect(looked).toBe(false);
  });

  it("recognises the configured modes", () => {
    expect(isSandboxMode("require")).toBe(true);
    expect(isSandboxMode("off")).toBe(true);
    expect(isSandboxMode("auto")).toBe(false);
  });
});

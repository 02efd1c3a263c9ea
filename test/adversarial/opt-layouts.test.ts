// The runner's own files stay hidden: a self-hosted runner installed under /opt
// (/opt/actions-runner, as its docs suggest) keeps its registration, RSA key, the checkout and the
// job's files-commands there. The sandbox shows toolchains one by one (/opt/hostedtoolcache, the
// runner's tool cache, the image's folders, a repository's `sandbox.readOnlyPaths`), never /opt
// whole and never a runner's folder wherever it is: each layout below is built under a temp root
// (standing in for /), with the runner's variables set as the runner sets them, and every
// readOnlyPath that would show a secret is refused with a SandboxConfigError naming it. Positive
// control: the same layout shown whole (the old `/opt` in the root) lets `cat` read every secret.

import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBwrapSandbox } from "../../src/adapters/sandbox/bwrap-sandbox.js";
import { SandboxConfigError } from "../../src/adapters/sandbox/errors.js";
import { discoverSystemRoot } from "../../src/adapters/sandbox/system-root.js";
import {
  resolveToolchains,
  type ShownToolchains,
} from "../../src/adapters/sandbox/toolchain-paths.js";
import type { Sandbox } from "../../src/ports/sandbox.js";
import { bwrapSuite } from "../support/sandbox/sandbox-fixtures.js";
import { cases } from "../support/adversarial/count.js";

const { bwrapPath, bit, skipped } = bwrapSuite();
const SECRET = "ghs_RunnerSecret0123456789abcdefABCDEF";

let t: string;
let env: Record<string, string>;
let home: string;
const at = (p: string) => path.join(t, p);

/** Files holding a secret, relative to the layout's root. */
const SECRETS = [
  "opt/actions-runner/.credentials",
  "opt/actions-runner/.credentials_rsaparams",
  "opt/actions-runner/.runner",
  "opt/actions-runner/_work/_temp/_runner_file_commands/set_env_1",
  "opt/actions-runner/_work/_temp/_runner_file_commands/set_output_1",
  "opt/actions-runner/_work/repo/repo/.git/config",
  "srv/runner-2/.credentials",
  "home/runner/.ssh/id_rsa",
  "home/runner/.cargo/credentials.toml",
];

beforeAll(async () => {
  // Not under /tmp or /var/tmp: a readOnlyPath there is refused as scratch space, whatever
  // it holds. node_modules/.cache is ignored by git and writable wherever the tests run.
  const base = path.resolve("node_modules/.cache");
  await mkdir(base, { recursive: true });
  t = await realpath(await mkdtemp(path.join(base, "cfa-opt-layouts-")));
  home = at("home/runner");
  for (const file of [
    ...SECRETS,
    "opt/actions-runner/bin/Runner.Listener",
    "opt/actions-runner/_work/_tool/node/20.0.0/x64/bin/node-tool",
    "opt/hostedtoolcache/go/1.22.0/x64/bin/go-tool",
    "opt/pipx_bin/black",
    "home/runner/.cargo/bin/cargo-tool",
    "home/runner/.rustup/settings.toml",
  ]) {
    await mkdir(path.dirname(at(file)), { recursive: true });
    await writeFile(at(file), SECRETS.includes(file) ? `${SECRET}\n` : "tool\n");
  }
  await symlink(at("opt/actions-runner"), at("opt/tools-link"));
  const work = at("opt/actions-runner/_work");
  env = {
    RUNNER_TEMP: `${work}/_temp`,
    RUNNER_WORKSPACE: `${work}/repo`,
    RUNNER_TOOL_CACHE: `${work}/_tool`,
    GITHUB_WORKSPACE: `${work}/repo/repo`,
    GITHUB_ENV: `${work}/_temp/_runner_file_commands/set_env_1`,
    GITHUB_OUTPUT: `${work}/_temp/_runner_file_commands/set_output_1`,
    GITHUB_STEP_SUMMARY: `${work}/_temp/_runner_file_commands/step_summary_1`,
    GITHUB_EVENT_PATH: `${work}/_temp/_github_workflow/event.json`,
  };
});
afterAll(async () => {
  await rm(t, { recursive: true, force: true });
});

function resolve(configured: string[]): Promise<ShownToolchains> {
  return resolveToolchains({
    configured,
    defaults: [at("opt/hostedtoolcache"), env.RUNNER_TOOL_CACHE!, "~/.cargo", "~/.rustup"],
    home,
    env,
  });
}

/** readOnlyPaths that would show a runner's or the worker's secrets. */
const REFUSED: readonly [string, string][] = [
  ["all of the layout's /opt", "opt"],
  ["the runner's root", "opt/actions-runner"],
  ["the runner's bin folder (inside its root, by the markers)", "opt/actions-runner/bin"],
  ["the runner's work folder", "opt/actions-runner/_work"],
  [
    "the job's files-commands (inside RUNNER_TEMP)",
    "opt/actions-runner/_work/_temp/_runner_file_commands",
  ],
  ["the checkout (GITHUB_WORKSPACE)", "opt/actions-runner/_work/repo/repo"],
  ["a link to the runner's root", "opt/tools-link"],
  ["a folder holding another runner the variables do not name", "srv"],
  ["the worker's home", "home/runner"],
  ["the folder holding the worker's home", "home"],
];

describe(
  cases(`/opt layouts: readOnlyPaths that would show the runner's folders`, REFUSED.length),
  () => {
    it.each(REFUSED)("%s is refused with a config error naming the field", async (_what, rel) => {
      const error = await resolve([at(rel)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxConfigError);
      expect((error as Error).message).toMatch(/^cfa\/sandbox: sandbox\.readOnlyPaths\[0\]: /);
    });
  },
);

describe(cases(`/opt layouts: what is shown${skipped}`, 3), () => {
  let sandbox: Sandbox;
  let ws: string;
  /** `argv` run in `box` (by default the suite's sandbox) from the workspace, offline. */
  const run = (argv: string[], box = sandbox) =>
    box.run({
      argv,
      cwd: ws,
      env: { PATH: "/usr/bin:/bin" },
      timeoutMs: 20_000,
      maxOutputBytes: 65536,
      network: false,
    });
  const cat = (file: string, box = sandbox) => run(["cat", file], box);

  beforeAll(async () => {
    ws = at("ws");
    await mkdir(ws, { recursive: true });
    if (bwrapPath !== null) {
      sandbox = createBwrapSandbox({ bwrapPath, toolchains: await resolve([at("opt/pipx_bin")]) });
    }
  });

  bit("no secret of the layout is readable; the toolchains are, read-only", async () => {
    for (const file of SECRETS) {
      const result = await cat(at(file));
      expect(result.stdout, file).not.toContain(SECRET);
    }
    for (const tool of [
      "opt/hostedtoolcache/go/1.22.0/x64/bin/go-tool",
      "opt/actions-runner/_work/_tool/node/20.0.0/x64/bin/node-tool",
      "opt/pipx_bin/black",
      "home/runner/.cargo/bin/cargo-tool",
    ]) {
      expect((await cat(at(tool))).stdout, tool).toBe("tool\n");
    }
    const write = await run(["sh", "-c", `echo x > ${at("opt/hostedtoolcache/planted")}`]);
    expect(write.exitCode).not.toBe(0);
  });

  bit("the shown toolchains' program folders are on PATH, and rustup finds its home", async () => {
    const result = await run(["sh", "-c", 'echo "$PATH"; echo "$RUSTUP_HOME"']);
    const [pathLine, rustup] = result.stdout.split("\n");
    expect(pathLine?.split(":")).toEqual(
      expect.arrayContaining([at("home/runner/.cargo/bin"), at("opt/pipx_bin")]),
    );
    expect(rustup).toBe(at("home/runner/.rustup"));
  });

  bit(
    "positive control: the layout's /opt shown whole (as the sandbox once showed it) gives every runner secret away",
    async () => {
      const system = await discoverSystemRoot();
      const whole = createBwrapSandbox({
        bwrapPath: bwrapPath!,
        systemRoot: { ...system, folders: [...system.folders, at("opt")] },
        toolchains: { folders: [], hiddenFiles: [], binFolders: [], env: {} },
      });
      const runnerSecrets = SECRETS.filter((f) => f.startsWith("opt/"));
      for (const file of runnerSecrets) {
        const result = await cat(at(file), whole);
        expect(result.stdout, file).toContain(SECRET);
      }
    },
  );
});

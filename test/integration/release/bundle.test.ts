// The release bundles (a released action installs nothing at run time): `npm run bundle` makes the
// worker and the server one file each, and a released tree (action.yml's folder: package.json,
// prompts/, the bundle) runs them with `node` alone, with no node_modules anywhere above it.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { build } from "esbuild";
import { BUNDLE_OPTIONS, type BundleResult } from "../../../scripts/bundle.js";
import { makeReleaseTree, type ReleaseTree } from "../../support/release/release-tree.js";
import { testPrivateKey } from "../../support/github/index.js";
import { bound } from "../../support/time-bound.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
let tree: string;
let built: BundleResult;

let release: ReleaseTree;

beforeAll(async () => {
  release = await makeReleaseTree();
  tree = release.dir;
  built = release.built;
}, bound(120_000));

afterAll(async () => {
  await release.cleanup();
});

function run(file: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [join(tree, "dist", file), ...args], {
    cwd: join(tree, "work"),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, exited, output: () => output };
}

describe("the release bundles run with node alone", () => {
  it("leave nothing outside but Node's own modules", () => {
    const builtin = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    expect(built.external.filter((m) => !builtin.has(m))).toEqual([]);
    expect(Object.keys(built.sizes).sort()).toEqual(["cfa-server", "cfa-worker"]);
  });

  it("the worker prints its first log line: the usage error, as an Actions annotation", async () => {
    const worker = run("cfa-worker.mjs", ["--frobnicate"], {
      GITHUB_REPOSITORY: "octo-org/hello-world",
      GITHUB_TOKEN: "ghs_unused",
    });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toMatch(/^::error::cfa\/worker: unknown option --frobnicate; usage:/);
  });

  it("bundled, the worker's prompt lookup finds prompts/ beside the bundle, not in the checkout", async () => {
    // The worker's own lookup (src/skills/package-root.ts), bundled the same way.
    await build({
      ...BUNDLE_OPTIONS,
      entryPoints: [join(ROOT, "src/skills/package-root.ts")],
      outfile: join(tree, "dist", "package-root.mjs"),
    });
    const probe = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'const { promptPath } = await import(process.argv[1]); process.stdout.write(promptPath("roles"));',
        join(tree, "dist", "package-root.mjs"),
      ],
      { cwd: join(tree, "work"), stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    probe.stdout.on("data", (c: Buffer) => (out += c.toString()));
    await new Promise((resolve) => probe.on("exit", resolve));
    expect(out).toBe(join(tree, "prompts", "roles"));
  });

  it(
    "the server answers /ping and refuses to start without a webhook secret",
    async () => {
      const refused = run("cfa-server.mjs", [], { APP_ID: "1", PRIVATE_KEY: testPrivateKey() });
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain("WEBHOOK_SECRET: must be set");

      const server = run("cfa-server.mjs", [], {
        APP_ID: "1",
        PRIVATE_KEY: testPrivateKey(),
        WEBHOOK_SECRET: "bundle-test",
        HOST: "127.0.0.1",
        PORT: "0",
        LOG_FORMAT: "json",
      });
      try {
        let port: string | undefined;
        for (let i = 0; i < 300 && port === undefined; i += 1) {
          port = /listening on 127\.0\.0\.1:(\d+)/.exec(server.output())?.[1];
          if (port === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(port).toBeDefined();
        expect(await (await fetch(`http://127.0.0.1:${port}/ping`)).text()).toBe("PONG");
      } finally {
        server.child.kill("SIGTERM");
        await server.exited;
      }
    },
    bound(30_000),
  );
});

describe("action.yml's step", () => {
  const step = (
    parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as {
      runs: { steps: { run: string }[] };
    }
  ).runs.steps;

  /**
   * Runs the step's script as the runner would, with an `npm` that only records its calls
   * (and, given `nodeVersion`, a `node` that is that version and records that it ran).
   */
  async function runStep(actionPath: string, nodeVersion?: string) {
    const bin = await mkdtemp(join(tmpdir(), "cfa-fake-npm-"));
    const calls = join(bin, "calls");
    await writeFile(join(bin, "npm"), `#!/bin/sh\necho "$@" >> "${calls}"\n`);
    await chmod(join(bin, "npm"), 0o755);
    if (nodeVersion !== undefined) {
      await writeFile(
        join(bin, "node"),
        `#!/bin/sh\nif [ "$1" = --version ]; then echo ${nodeVersion}; else echo "node $@" >> "${calls}"; fi\n`,
      );
      await chmod(join(bin, "node"), 0o755);
    }
    const child = spawn("bash", ["-e", "-c", step.at(-1)!.run], {
      cwd: join(tree, "work"),
      env: {
        PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
        GITHUB_ACTION_PATH: actionPath,
        GITHUB_ACTION_REF: "some-branch",
        GITHUB_REPOSITORY: "octo-org/hello-world",
        GITHUB_TOKEN: "ghs_unused",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const npm = await readFile(calls, "utf8").catch(() => "");
    await rm(bin, { recursive: true, force: true });
    return { code, output, npm };
  }

  it("is the only step: on a released tree it runs node on the bundle and installs nothing", async () => {
    expect(step).toHaveLength(1);
    const { code, output, npm } = await runStep(tree);
    expect(npm).toBe("");
    expect(output).toMatch(
      /^::error::cfa\/worker: cannot tell what to do for a run outside Actions/,
    );
    expect(code).toBe(1);
  });

  it.each(["v20.19.5", "v22.11.0"])(
    "on a runner whose Node is %s, says in one line what to add and runs nothing",
    async (version) => {
      const { code, output, npm } = await runStep(tree, version);
      expect(output).toBe(
        `::error title=cfa-bot::cfa-bot needs Node.js 22.12 or later; this runner's node is ${version}. Add actions/setup-node@v7 with node-version: 24 before it (templates/workflows/).\n`,
      );
      expect(npm).toBe("");
      expect(code).toBe(1);
    },
  );

  it("(control) the same fake node at 22.12 gets past the check and runs the worker", async () => {
    const { npm } = await runStep(tree, "v22.12.0");
    expect(npm).toContain("node ");
    expect(npm).toContain("dist/cfa-worker.mjs");
  });

  it("on a tree without the bundle (a branch), says so and builds it with npm first", async () => {
    const branch = await mkdtemp(join(tmpdir(), "cfa-branch-"));
    try {
      const { npm, output } = await runStep(branch);
      expect(output).toContain("::notice title=cfa-bot::cfa-bot@some-branch is not a release");
      expect(npm).toBe("ci --ignore-scripts --no-audit --no-fund\nrun --silent bundle\n");
    } finally {
      await rm(branch, { recursive: true, force: true });
    }
  });
});

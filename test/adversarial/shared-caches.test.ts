// A shared package cache holds data, never configuration. Task A's setup runs the job
// branch's own scripts, which an agent can edit (an npm `preinstall`): it writes where each
// tool reads its configuration and programs — cargo's `config.toml` naming a rustc-wrapper,
// its `credentials.toml` and `bin/`, npm's `.npmrc` and `_npx`, pip's `pip.conf`, `go env -w`'s
// file — and a configuration file into each shared part. Task B's setup then runs with the
// same shared caches (engine/setup/shared-caches.ts) in its own workspace: `cargo build`
// runs no wrapper, npm reads its own registry, and nothing A planted is visible — while what
// A put in the shared data parts is (the caches still share what they are for). Positive
// control: with CARGO_HOME and npm's user config shared, as before, B's `cargo build` runs A's
// wrapper and B's npm asks A's registry.

import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { createGitWorkspaces } from "../../src/adapters/git/index.js";
import { createBwrapSandbox } from "../../src/adapters/sandbox/bwrap-sandbox.js";
import { createUnsandboxed } from "../../src/adapters/sandbox/unsandboxed.js";
import { sharedCaches } from "../../src/engine/setup/shared-caches.js";
import type { CommandRequest, Sandbox, SharedCache } from "../../src/ports/sandbox.js";
import type { Workspace } from "../../src/ports/workspaces.js";
import { cases } from "../support/adversarial/count.js";
import { makeGitFixture, type GitFixture } from "../support/git/git-fixture.js";
import { bwrapSuite, SYSTEM_PATH } from "../support/sandbox/sandbox-fixtures.js";

const { bwrapPath, bit, skipped } = bwrapSuite();

/** A crate with no dependency: `cargo build --offline` runs rustc (through any wrapper). */
const CRATE = {
  "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n',
  "src/main.rs": "fn main() {}\n",
};

/** What A's setup plants, each as a shell line, and the path B must not see (under ~). */
const PLANTS: readonly [string, string, string][] = [
  [
    "cargo's config.toml naming a rustc-wrapper",
    'mkdir -p "$CARGO_HOME" && printf \'[build]\\nrustc-wrapper = "%s"\\n\' "$PWD/../wrapper.sh" > "$CARGO_HOME/config.toml"',
    ".cargo/config.toml",
  ],
  [
    "cargo's credentials.toml",
    'printf \'[registry]\\ntoken = "planted"\\n\' > "$CARGO_HOME/credentials.toml"',
    ".cargo/credentials.toml",
  ],
  [
    "a program in cargo's bin/",
    'mkdir -p "$CARGO_HOME/bin" && printf "#!/bin/sh\\necho planted\\n" > "$CARGO_HOME/bin/cargo-planted" && chmod +x "$CARGO_HOME/bin/cargo-planted"',
    ".cargo/bin/cargo-planted",
  ],
  ["npm's user .npmrc", "echo registry=http://planted.example/ > ~/.npmrc", ".npmrc"],
  [
    "a package in npm's _npx",
    'mkdir -p "$npm_config_cache/_npx/planted" && echo planted > "$npm_config_cache/_npx/planted/package.json"',
    ".npm/_npx/planted/package.json",
  ],
  [
    "pip's user pip.conf",
    "mkdir -p ~/.config/pip && printf '[global]\\nindex-url = http://planted.example/\\n' > ~/.config/pip/pip.conf",
    ".config/pip/pip.conf",
  ],
  [
    "go env -w's file",
    "mkdir -p ~/.config/go && echo GOPROXY=http://planted.example/ > ~/.config/go/env",
    ".config/go/env",
  ],
  [
    "Go's build cache",
    'mkdir -p "$GOCACHE/00" && echo planted > "$GOCACHE/00/planted-d"',
    ".cache/go-build/00/planted-d",
  ],
];

/** Configuration written into each shared data part (no tool reads it there). */
const INTO_SHARED =
  'for d in "$npm_config_cache/_cacache" "$CARGO_HOME/registry/index" "$CARGO_HOME/registry/cache" "$PIP_CACHE_DIR/http-v2" "$GOMODCACHE/cache/download"; do echo registry=http://planted.example/ > "$d/.npmrc"; printf "[build]\\nrustc-wrapper = \\"x\\"\\n" > "$d/config.toml"; done; echo data > "$npm_config_cache/_cacache/shared-data"';

let fx: GitFixture;
let a: Workspace;
let b: Workspace;
let caches: SharedCache[];

beforeAll(async () => {
  fx = makeGitFixture();
  for (const [file, text] of Object.entries(CRATE)) fx.write(fx.repo, file, text);
  fx.commitAll(fx.repo, "a crate");
  const workspaces = createGitWorkspaces({ repoDir: fx.repo, area: fx.area });
  a = await workspaces.create({ name: "task-a", branch: "cfa/1-a", from: "main" });
  b = await workspaces.create({ name: "task-b", branch: "cfa/1-b", from: "main" });
  caches = await sharedCaches(fx.area);
  // The wrapper A's configuration names: it leaves a marker in whatever tree runs it.
  await writeFile(
    path.join(fx.area, "wrapper.sh"),
    '#!/bin/sh\necho ran > "$PWD/wrapper-ran"\nexec "$@"\n',
    { mode: 0o755 },
  );
});
afterAll(() => fx.cleanup());

/** A setup command as engine/setup/run-setup.ts makes it: shared caches, the workspace's home. */
function setup(ws: Workspace, script: string): CommandRequest {
  return {
    argv: ["sh", "-c", script],
    cwd: ws.root,
    env: { PATH: SYSTEM_PATH },
    timeoutMs: 120_000,
    maxOutputBytes: 1 << 20,
    network: false,
    caches,
    ...(ws.home === undefined ? {} : { home: ws.home }),
  };
}

async function bOutcome(sandbox: Sandbox, request: (script: string) => CommandRequest) {
  const build = await sandbox.run(
    request("cargo build --offline --quiet 2>&1; npm config get registry"),
  );
  return {
    built: existsSync(path.join(b.root, "target", "debug", "x")),
    wrapperRan: existsSync(path.join(b.root, "wrapper-ran")),
    registry: build.stdout.trim().split("\n").at(-1),
    output: build.stdout + build.stderr,
  };
}

describe(cases(`shared caches hold data, not configuration${skipped}`, PLANTS.length + 1), () => {
  bit(
    "task A's setup plants; task B's setup reads none of it, and still shares the data",
    async () => {
      const sandbox = createBwrapSandbox({ bwrapPath: bwrapPath! });
      const planted = await sandbox.run(
        setup(a, [...PLANTS.map(([, line]) => line), INTO_SHARED].join(" && ")),
      );
      expect(planted.exitCode, planted.stdout + planted.stderr).toBe(0);
      // Each plant is where A's tools would read it: in A's own home.
      for (const [what, , at] of PLANTS)
        expect(existsSync(path.join(a.home!, at)), what).toBe(true);

      const seen = await sandbox.run(
        setup(
          b,
          `for f in ${PLANTS.map(([, , at]) => `"$HOME/${at}"`).join(" ")}; do test -e "$f" && echo "$f"; done; cat "$npm_config_cache/_cacache/shared-data"; cargo planted 2>&1 | head -1`,
        ),
      );
      const lines = seen.stdout.trim().split("\n");
      expect(lines.filter((l) => l.startsWith("/home/"))).toEqual([]);
      expect(lines).toContain("data");
      expect(seen.stdout).not.toContain("planted\n");
      const outcome = await bOutcome(sandbox, (script) => setup(b, script));
      expect(outcome.built, outcome.output).toBe(true);
    expect(outcome.wrapperRan, outcome.output).toBe(false);
      expect(outcome.registry).toBe("https://registry.npmjs.org/");
    },
  );

  bit(
    "positive control: CARGO_HOME and npm's user config shared, B runs A's wrapper and asks A's registry",
    async () => {
      const plain = createUnsandboxed();
      const shared = path.join(fx.area, "old-shared");
      await mkdir(path.join(shared, "home"), { recursive: true });
      const old = (ws: Workspace) => (script: string) => ({
        argv: ["sh", "-c", script],
        cwd: ws.root,
        env: {
          PATH: `${SYSTEM_PATH}:${process.env.HOME}/.cargo/bin`,
          HOME: path.join(shared, "home"),
          CARGO_HOME: path.join(shared, "cargo"),
          RUSTUP_HOME: `${process.env.HOME}/.rustup`,
          npm_config_cache: path.join(shared, "npm"),
        },
        timeoutMs: 120_000,
        maxOutputBytes: 1 << 20,
        network: false as const,
      });
      const planted = await plain.run(old(a)([PLANTS[0]![1], PLANTS[3]![1]].join(" && ")));
      expect(planted.exitCode, planted.stderr).toBe(0);
      const outcome = await bOutcome(plain, old(b));
      expect(outcome.wrapperRan, outcome.output).toBe(true);
      expect(outcome.registry).toBe("http://planted.example/");
    },
  );
});

// Toolchain folders show programs, not credentials, at any depth. A runner's tool cache and
// ~/.cargo hold credential files below their top level: a global npmrc where `npm config
// set -g` writes (`<toolcache>/node/<v>/x64/etc/npmrc`), a site `pip.conf` beside a
// setup-python interpreter, cargo's `config.toml` with a proxy password, a token in a git
// remote of `~/.cargo/git/db/*/config`, and the rest of the documented credential files
// (src/adapters/sandbox/credential-files.ts). Each is planted in a layout built under a temp
// root, shown as the runner shows it (resolveToolchains), and read with `cat` in the real
// sandbox: none gives its secret, while the toolchain's programs still run. Positive control:
// covering only the top level's files, as before, leaves every deeper one readable.

import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { createBwrapSandbox } from "../../src/adapters/sandbox/bwrap-sandbox.js";
import {
  resolveToolchains,
  type ShownToolchains,
} from "../../src/adapters/sandbox/toolchain-paths.js";
import type { Sandbox } from "../../src/ports/sandbox.js";
import { cases } from "../support/adversarial/count.js";
import { bwrapSuite, commandRequest } from "../support/sandbox/sandbox-fixtures.js";

const { bwrapPath, bit, skipped } = bwrapSuite();
const SECRET = "ghp_ToolchainCredential0123456789abcdef";

/** Credential files, relative to the layout's root (tool cache `tc/`, home `home/`). */
const PLANTED = [
  "tc/node/20.0.0/x64/etc/npmrc",
  "tc/node/20.0.0/x64/lib/node_modules/npm/npmrc",
  "tc/node/20.0.0/x64/lib/node_modules/some-pkg/.npmrc",
  "tc/node/20.0.0/x64/.yarnrc.yml",
  "tc/Python/3.12.0/x64/pip.conf",
  "tc/Python/3.12.0/x64/lib/python3.12/site-packages/pkg/.pypirc",
  "tc/Ruby/3.3.0/x64/.gem/credentials",
  "tc/Ruby/3.3.0/x64/.bundle/config",
  "tc/Java/17/x64/conf/settings.xml",
  "tc/gradle/8.0/gradle.properties",
  "tc/dotnet/NuGet.Config",
  "tc/tools/.netrc",
  "tc/tools/.git-credentials",
  "tc/tools/.gitconfig",
  "tc/tools/.docker/config.json",
  "tc/tools/gh/hosts.yml",
  "tc/tools/.aws/credentials",
  "tc/tools/.ssh/id_ed25519",
  "tc/tools/deep/a/b/c/d/e/f/g/h/token",
  "home/.cargo/config.toml",
  "home/.cargo/credentials.toml",
  "home/.cargo/git/db/dep-1a2b/config",
  "home/.cargo/git/db/dep-1a2b/FETCH_HEAD",
  "home/.cargo/git/checkouts/dep-1a2b/abc/.git/config",
] as const;

/** Plus a link by a credential name to a file by another name: its target is covered. */
const LINKED = { link: "tc/node/20.0.0/x64/etc/.npmrc", target: "tc/node/20.0.0/x64/etc/real-rc" };

let t: string;
let ws: string;
let shown: ShownToolchains;
const at = (p: string) => path.join(t, p);

beforeAll(async () => {
  // Not under /tmp: a readOnlyPath there is refused as scratch space (see opt-layouts.test.ts).
  const base = path.resolve("node_modules/.cache");
  await mkdir(base, { recursive: true });
  t = await realpath(await mkdtemp(path.join(base, "cfa-toolchain-creds-")));
  for (const file of [...PLANTED, LINKED.target]) {
    await mkdir(path.dirname(at(file)), { recursive: true });
    await writeFile(at(file), `token=${SECRET}\n`);
  }
  await symlink(path.basename(LINKED.target), at(LINKED.link));
  // A bare repository's shape around the git db's config; a program to run.
  await mkdir(at("home/.cargo/git/db/dep-1a2b/objects"), { recursive: true });
  await writeFile(at("home/.cargo/git/db/dep-1a2b/HEAD"), "ref: refs/heads/main\n");
  await mkdir(at("home/.cargo/git/checkouts/dep-1a2b/abc/.git/objects"), { recursive: true });
  await writeFile(at("home/.cargo/git/checkouts/dep-1a2b/abc/.git/HEAD"), "ref: refs/heads/main\n");
  await mkdir(at("tc/node/20.0.0/x64/bin"), { recursive: true });
  await writeFile(at("tc/node/20.0.0/x64/bin/node-tool"), "#!/bin/sh\necho tool ran\n");
  await chmod(at("tc/node/20.0.0/x64/bin/node-tool"), 0o755);
  ws = at("ws");
  await mkdir(ws, { recursive: true });
  shown = await resolveToolchains({
    defaults: [at("tc"), "~/.cargo"],
    home: at("home"),
    env: {},
  });
});
afterAll(async () => {
  await rm(t, { recursive: true, force: true });
});

const run = (sandbox: Sandbox, argv: string[]) => sandbox.run(commandRequest(ws, argv));

describe(cases(`toolchain credentials at any depth${skipped}`, PLANTED.length + 1), () => {
  bit("each is found and covered: cat gives nothing of it, the programs still run", async () => {
    expect(shown.hiddenFiles).toEqual([...PLANTED, LINKED.target].map(at).sort());
    const sandbox = createBwrapSandbox({ bwrapPath: bwrapPath!, toolchains: shown });
    const read = await run(sandbox, [
      "sh",
      "-c",
      `cat ${[...PLANTED, LINKED.link].map(at).join(" ")}`,
    ]);
    expect(read.stdout).toBe("");
    expect(read.stdout + read.stderr).not.toContain(SECRET);
    const tool = await run(sandbox, [at("tc/node/20.0.0/x64/bin/node-tool")]);
    expect(tool.stdout).toBe("tool ran\n");
  });

  bit(
    "positive control: covering only the top level leaves every deeper file readable",
    async () => {
      const topOnly = {
        ...shown,
        hiddenFiles: shown.hiddenFiles.filter((f) => shown.folders.includes(path.dirname(f))),
      };
      const sandbox = createBwrapSandbox({ bwrapPath: bwrapPath!, toolchains: topOnly });
      let readable = 0;
      for (const file of PLANTED) {
        if ((await run(sandbox, ["cat", at(file)])).stdout.includes(SECRET)) readable += 1;
      }
      // Only the two at ~/.cargo's top (config.toml, credentials.toml) are covered so.
      expect(readable).toBe(PLANTED.length - 2);
    },
  );
});

// The `cfa` command as npm ships it, to run in any repository: `npm pack` of the checkout (its
// `prepare` builds dist/, as `npm publish` does), served as published by a local registry that also
// serves the checkout's own node_modules (test/support/npm/local-registry.ts: real npm over HTTP,
// nothing reaches the network), installed by name into an empty folder, then run from another
// repository: `cfa --help`, `cfa demo`, and `npx cfa-bot`. The tarball holds what the command reads
// at run time and nothing it does not; its `dependencies` are exactly the packages that code
// imports.

import { execFile, execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalRegistry, type LocalRegistry } from "../../support/npm/local-registry.js";
import { bound } from "../../support/time-bound.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const MANIFEST = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};

let tmp: string;
let tarball: string;
let packed: string[];
let registry: LocalRegistry;
let app: string;
let other: string;
let install: { stdout: string; stderr: string };

/** Every optional peer dependency named by a package installed under `modules`. */
function optionalPeersOf(modules: string): Set<string> {
  const lock = JSON.parse(readFileSync(join(modules, ".package-lock.json"), "utf8")) as {
    packages: Record<string, { peerDependenciesMeta?: Record<string, { optional?: boolean }> }>;
  };
  const out = new Set<string>();
  for (const entry of Object.values(lock.packages))
    for (const [name, meta] of Object.entries(entry.peerDependenciesMeta ?? {}))
      if (meta.optional) out.add(name);
  return out;
}

/** An environment with no npm settings or proxies of the machine's: npm sees only ours. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || /_proxy$/i.test(key) || key === "XDG_CACHE_HOME") continue;
    env[key] = value;
  }
  return {
    ...env,
    npm_config_userconfig: join(tmp, "npmrc"),
    npm_config_globalconfig: join(tmp, "global-npmrc"),
    npm_config_cache: join(tmp, "npm-cache"),
    // Until the registry runs (npm pack needs none), one that nothing answers.
    npm_config_registry: registry?.url ?? "http://127.0.0.1:9/",
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    XDG_CACHE_HOME: join(tmp, "cache"),
  };
}

/**
 * The checkout as `npm pack` sees it: every file git tracks or would track, with the
 * checkout's node_modules (for the build) but not its dist/, which `prepare` builds afresh.
 */
async function stage(): Promise<string> {
  const dir = join(tmp, "checkout");
  const files = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "-z"],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  )
    .split("\0")
    .filter((f) => f !== "" && existsSync(join(ROOT, f)));
  for (const file of files) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await cp(join(ROOT, file), join(dir, file));
  }
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "cfa-pack-test-"));
  await writeFile(join(tmp, "npmrc"), "");
  await writeFile(join(tmp, "global-npmrc"), "");
  const checkout = await stage();
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", tmp], {
    cwd: checkout,
    env: cleanEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
  // `prepare`'s output comes before the JSON report on stdout.
  const report = JSON.parse(stdout.slice(stdout.indexOf("\n[") + 1)) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(tmp, report[0]!.filename);
  packed = report[0]!.files.map((f) => f.path);
  registry = await startLocalRegistry(join(ROOT, "node_modules"), [tarball]);

  app = join(tmp, "app");
  await mkdir(app);
  install = await run("npm", ["install", MANIFEST.name], {
    cwd: app,
    env: cleanEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });

  other = join(tmp, "another-repo");
  await mkdir(other);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: other });
  git("init", "--quiet", "--initial-branch=main");
  git("-c", "user.name=B", "-c", "user.email=b@x", "commit", "--quiet", "--allow-empty", "-m", "b");
}, bound(600_000));

afterAll(async () => {
  await registry?.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Relative imports resolved within the packed files, bare ones collected, from `entry`. */
function importClosure(entry: string): {
  files: Set<string>;
  unresolved: string[];
  bare: Set<string>;
} {
  const files = new Set<string>();
  const unresolved: string[] = [];
  const bare = new Set<string>();
  const have = new Set(packed);
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(join(app, "node_modules", MANIFEST.name, file), "utf8");
    const specs = source.matchAll(
      /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm,
    );
    for (const m of specs) {
      const spec = (m[1] ?? m[2] ?? m[3])!;
      if (spec.startsWith(".")) {
        const target = normalize(join(dirname(file), spec));
        if (have.has(target)) stack.push(target);
        else unresolved.push(`${file} → ${spec}`);
      } else if (!spec.startsWith("node:") && !builtinModules.includes(spec)) {
        bare.add(
          spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!,
        );
      }
    }
  }
  return { files, unresolved, bare };
}

describe(`npm pack of ${MANIFEST.name}`, () => {
  it("holds the bin, the built command, the prompts and the demo recording", () => {
    expect(MANIFEST.bin).toEqual({ cfa: "bin/cfa.js" });
    for (const file of [
      "package.json",
      "README.md",
      "bin/cfa.js",
      "dist/cli/main.js",
      "prompts/roles/intent-lead.md",
      "prompts/skills/execute.md",
      "recordings/demo.json",
    ]) {
      expect(packed, file).toContain(file);
    }
  });

  it("holds nothing the command does not run: no sources, tests, maps, app, worker or bundles", () => {
    const unwanted = packed.filter((f) =>
      /^(src|test|bench|scripts|docs|templates)\/|\.map$|^dist\/(app|worker|github-events|adapters\/github)\/|^dist\/cfa-.*\.mjs$|^(app|action)\.yml$/.test(
        f,
      ),
    );
    expect(unwanted).toEqual([]);
  });

  it("holds every module the command imports, and depends on exactly the packages they import", () => {
    const closure = importClosure("bin/cfa.js");
    // bin/cfa.js imports dist/cli/main.js dynamically (to say when dist/ is missing).
    expect(closure.files).toContain("dist/cli/main.js");
    expect(closure.unresolved).toEqual([]);
    expect([...closure.bare].sort()).toEqual(Object.keys(MANIFEST.dependencies).sort());
  });
});

describe(`npm install ${MANIFEST.name} in an empty folder`, () => {
  it("installs with npm from the local registry, every package from it", () => {
    // npm looks up an optional peer dependency's packument even when it installs nothing of
    // it (the MCP SDK's @cfworker/json-schema): only those may be missing, and none installed.
    const optionalPeers = optionalPeersOf(join(app, "node_modules"));
    expect(registry.missing.filter((name) => !optionalPeers.has(name))).toEqual([]);
    for (const name of registry.missing)
      expect(existsSync(join(app, "node_modules", name)), name).toBe(false);
    expect(registry.requests).toContain(`/${MANIFEST.name}`);
    for (const name of Object.keys(MANIFEST.dependencies)) {
      expect(registry.requests, name).toContain(`/${name}`);
      expect(existsSync(join(app, "node_modules", name, "package.json")), name).toBe(true);
    }
    expect(existsSync(join(app, "node_modules", ".bin", "cfa"))).toBe(true);
  });

  it("runs `cfa --help` from another repository", async () => {
    const { stdout } = await run(join(app, "node_modules", ".bin", "cfa"), ["--help"], {
      cwd: other,
      env: cleanEnv(),
    });
    expect(stdout).toContain("Usage: cfa <command> [options]");
    expect(stdout).toContain("Start with `cfa demo`");
  });

  it("runs `cfa --version` as the package's version", async () => {
    const { stdout } = await run(join(app, "node_modules", ".bin", "cfa"), ["-v"], {
      cwd: other,
      env: cleanEnv(),
    });
    expect(stdout).toBe(`cfa ${MANIFEST.version}\n`);
  });

  it(
    "runs `cfa demo` from another repository, to DONE, leaving that repository alone",
    async () => {
      const before = execFileSync("git", ["for-each-ref"], { cwd: other, encoding: "utf8" });
      // --dir keeps the repository and its page (without it the demo removes its folder).
      const kept = join(tmp, "demo-kept");
      const { stdout, stderr } = await run(
        join(app, "node_modules", ".bin", "cfa"),
        ["demo", "--dir", kept],
        {
          cwd: other,
          env: cleanEnv(),
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      expect(stderr).toBe("");
      expect(stdout).toContain("EXECUTE       MERGED    task truncate into cfa/1");
      expect(stdout).toContain("DONE — the work is approved.");
      expect(stdout).toContain("with no model and no network. Where to look:");
      // The job's page, its diagrams drawn by the installed optional mermaid (no "as source").
      const page = /^ {2}the job's page {11}(.+)$/m.exec(stdout)?.[1] ?? "";
      expect(page).toMatch(/job-1\.html$/);
      expect(readFileSync(page, "utf8")).toContain("mermaid.initialize(");
      expect(execFileSync("git", ["for-each-ref"], { cwd: other, encoding: "utf8" })).toBe(before);
    },
    bound(180_000),
  );

  it(
    "runs as `npx cfa-bot` too, which then suggests `npx cfa-bot`",
    async () => {
      const { stdout } = await run("npx", ["--yes", MANIFEST.name, "--help"], {
        cwd: other,
        env: cleanEnv(),
      });
      expect(stdout).toContain("Usage: cfa <command> [options]");
      expect(stdout).toContain("Start with `npx cfa-bot demo`");
    },
    bound(180_000),
  );
});

describe("npm's own report of the install", () => {
  it("warns of nothing: no install script to approve, no engine refused", () => {
    expect(install.stderr.split("\n").filter((l) => /npm (error|warn)/.test(l))).toEqual([]);
  });
});

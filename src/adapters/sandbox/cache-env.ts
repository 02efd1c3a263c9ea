// Where a command's HOME is, and which parts of the job's shared package caches appear in it.
//
// HOME is the workspace's private folder (Workspace.home), shown at SANDBOX_HOME: never the
// worktree, so what tools write under ~ — npm's debug logs, pip's self-check, git's global
// config, shells' histories, `.cache`, `.config` — is never committed, and names no folder of
// the runner's. Each package manager keeps its configuration beside its cache (CARGO_HOME
// holds both `config.toml` and `registry/`), and a shared folder is one every workspace of
// the job reads: so only the parts that hold downloaded data are shared, bound read-write
// into the private home where the tool looks for them, and the tool's home, configuration and
// everything that runs (cargo's `bin/`, npm's `_npx`) stay private to the workspace. A
// configuration file one workspace's command writes is never read by another's.
//
// - npm: the cache folder's `_cacache` (content-addressed tarballs and metadata, checked on
//   read against the integrity each entry records); `_logs` and `_npx` stay private
//   (https://docs.npmjs.com/cli/v11/commands/npm-cache: "_cacache", "_logs", "_npx"). npm
//   reads no configuration from its cache folder: `~/.npmrc` is in the private home.
// - pip: the HTTP caches `http-v2` and `http` (pip's "Caching" topic:
//   https://pip.pypa.io/en/stable/topics/caching/); locally built `wheels` stay private, as
//   does `pip.conf` (`~/.config/pip/pip.conf`).
// - Go: GOMODCACHE's `cache/download` (module zips and their hashes, checked against
//   go.sum: `go help modules`, "Module cache"), so each workspace extracts its own copy;
//   GOCACHE — compiled objects the go command trusts — stays private, as does `go env -w`'s
//   file (`~/.config/go/env`).
// - Cargo: CARGO_HOME private; its `registry/index` and `registry/cache` (the index and the
//   downloaded `.crate` files) shared — not `registry/src`, not `git/` and never
//   `config.toml`, `credentials.toml` or `bin/` (the Cargo Book, "Cargo Home":
//   https://doc.rust-lang.org/cargo/guide/cargo-home.html).

import type { CacheTool } from "../../ports/sandbox.js";

/** A command's HOME inside the sandbox (/home is an empty folder there). */
export const SANDBOX_HOME = "/home/cfa";

export interface CacheLayout {
  /** The variables that point the tool at its folders under `home`. */
  env(home: string): Record<string, string>;
  /** The shared data parts: a folder of the shared cache, and where it appears under home. */
  parts: readonly { shared: string; at: string }[];
}

export const CACHE_LAYOUT: Readonly<Record<CacheTool, CacheLayout>> = {
  npm: {
    env: (home) => ({ npm_config_cache: `${home}/.npm` }),
    parts: [{ shared: "_cacache", at: ".npm/_cacache" }],
  },
  pip: {
    env: (home) => ({ PIP_CACHE_DIR: `${home}/.cache/pip` }),
    parts: [
      { shared: "http-v2", at: ".cache/pip/http-v2" },
      { shared: "http", at: ".cache/pip/http" },
    ],
  },
  go: {
    env: (home) => ({
      GOPATH: `${home}/go`,
      GOMODCACHE: `${home}/go/pkg/mod`,
      GOCACHE: `${home}/.cache/go-build`,
    }),
    parts: [{ shared: "download", at: "go/pkg/mod/cache/download" }],
  },
  cargo: {
    env: (home) => ({ CARGO_HOME: `${home}/.cargo` }),
    parts: [
      { shared: "registry-index", at: ".cargo/registry/index" },
      { shared: "registry-cache", at: ".cargo/registry/cache" },
    ],
  },
};

/** The tool's variables for a HOME at `home` (the unsandboxed run's own folder, or SANDBOX_HOME). */
export function cacheEnv(tool: CacheTool, home: string): Record<string, string> {
  return CACHE_LAYOUT[tool].env(home);
}

// The variables that point each package manager at a shared cache folder (issue 20 "Shared
// package caches"); the folder itself is bound read-write at its own path.
// - npm: `cache` (npm docs, config "cache"; default ~/.npm), set as npm_config_cache.
// - pip: PIP_CACHE_DIR (pip docs, "Caching": --cache-dir, or the PIP_CACHE_DIR variable).
// - Go: GOMODCACHE for downloaded modules and GOCACHE for build results (`go help
//   environment`; defaults $GOPATH/pkg/mod and ~/.cache/go-build).
// - Cargo: CARGO_HOME (Cargo Book, "Cargo Home": registry/index, registry/cache and git/db
//   live under it; default ~/.cargo). Binaries rustup installed stay on PATH from the
//   read-only ~/.cargo/bin.

import type { CacheTool } from "../../ports/sandbox.js";

/** Sub-folders the cache needs before the tool runs (made by the sandbox). */
export const CACHE_SUBFOLDERS: Readonly<Record<CacheTool, readonly string[]>> = {
  npm: [],
  pip: [],
  go: ["mod", "build"],
  cargo: [],
};

export function cacheEnv(tool: CacheTool, folder: string): Record<string, string> {
  switch (tool) {
    case "npm":
      return { npm_config_cache: folder };
    case "pip":
      return { PIP_CACHE_DIR: folder };
    case "go":
      return { GOMODCACHE: `${folder}/mod`, GOCACHE: `${folder}/build` };
    case "cargo":
      return { CARGO_HOME: folder };
    default: {
      const unreachable: never = tool;
      return unreachable;
    }
  }
}

// The toolchains a sandbox shows besides /usr, one by one rather than /opt whole: the
// Actions tool cache (/opt/hostedtoolcache, where setup-node, setup-python, setup-go… put
// their versions, or RUNNER_TOOL_CACHE where a runner sets another), the folders GitHub's
// ubuntu-24.04 image installs into outside /usr (DEFAULT_READ_ONLY_PATHS), and what a
// repository adds with `sandbox.readOnlyPaths`. Each is bound read-only at its own path;
// one that does not exist is skipped. One that would show a runner's folder, the worker's
// home as a whole, or a place that holds credentials is refused: for a repository's own
// entry with a SandboxConfigError naming it, for a default by leaving it out.

import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_READ_ONLY_PATHS, readOnlyPathProblem } from "../../config/read-only-paths.js";
import { credentialFilesIn } from "./credential-files.js";
import { SandboxConfigError } from "./errors.js";
import { runnerFolderProblem, runnerFoldersFromEnv } from "./runner-folders.js";

/** The Actions tool cache on GitHub's runners (actions/toolkit tool-cache: RUNNER_TOOL_CACHE). */
export const HOSTED_TOOL_CACHE = "/opt/hostedtoolcache";

export interface ShownToolchains {
  /** Real paths of folders bound read-only at their own path. */
  folders: string[];
  /** Credential-shaped files inside them at any depth (credential-files.ts), covered. */
  hiddenFiles: string[];
  /** Their program folders, added to the command's PATH when it lacks them. */
  binFolders: string[];
  /** Variables a shown toolchain needs (RUSTUP_HOME: rustup looks in $HOME, the workspace). */
  env: Record<string, string>;
}

export interface ToolchainOptions {
  /** `sandbox.readOnlyPaths` from .github/cfa.yml. */
  configured?: readonly string[];
  /** Default DEFAULT_READ_ONLY_PATHS plus the tool cache. */
  defaults?: readonly string[];
  /** The worker's home, for `~/`; null when it has none. */
  home: string | null;
  /** The worker's environment: the runner's variables name its folders. */
  env: Readonly<Record<string, string | undefined>>;
  /** Folders no shown path may be inside (the job area with every workspace). */
  private?: readonly string[];
}

const within = (p: string, folder: string) =>
  folder === "/" || p === folder || p.startsWith(`${folder}/`);

export function defaultToolchainPaths(env: Readonly<Record<string, string | undefined>>): string[] {
  const cache = toolCacheOf(env);
  return [HOSTED_TOOL_CACHE, ...(cache ? [cache] : []), ...DEFAULT_READ_ONLY_PATHS];
}

/** RUNNER_TOOL_CACHE when set: on a self-hosted runner it is <root>/_work/_tool by default. */
function toolCacheOf(env: Readonly<Record<string, string | undefined>>): string | null {
  const cache = env.RUNNER_TOOL_CACHE;
  return cache && path.isAbsolute(cache) ? path.normalize(cache) : null;
}

export async function resolveToolchains(options: ToolchainOptions): Promise<ShownToolchains> {
  const runnerFolders = await runnerFoldersFromEnv(options.env);
  const home =
    options.home === null ? null : await realpath(options.home).catch(() => options.home);
  const privateFolders = options.private ?? [];
  const toolCache = toolCacheOf(options.env);
  const shown: ShownToolchains = { folders: [], hiddenFiles: [], binFolders: [], env: {} };
  const entries = [
    ...(options.defaults ?? defaultToolchainPaths(options.env)).map((entry) => ({
      entry,
      field: null as string | null,
    })),
    ...(options.configured ?? []).map((entry, i) => ({
      entry,
      field: `sandbox.readOnlyPaths[${i}]`,
    })),
  ];
  for (const { entry, field } of entries) {
    const refuse = (why: string): void => {
      if (field !== null) throw new SandboxConfigError(field, `${entry}: ${why}`);
    };
    let expanded = entry;
    if (entry === "~" || entry.startsWith("~/")) {
      if (home === null) {
        refuse("the worker has no home folder");
        continue;
      }
      expanded = path.join(home, entry.slice(1));
    }
    const real = await realpath(expanded).catch(() => null);
    if (real === null || !(await stat(real)).isDirectory()) continue; // not on this machine
    // A link may lead anywhere: judge where it leads as well as how it was written.
    const homeRelative = home !== null && within(real, home) ? `~${real.slice(home.length)}` : real;
    const problem =
      readOnlyPathProblem(homeRelative) ??
      (home !== null && within(home, real) ? "it holds the worker's home folder" : null) ??
      privateFolders
        .map((p) => (within(real, p) ? `it is inside the job area ${p}` : null))
        .find(Boolean) ??
      (await runnerFolderProblem(
        real,
        runnerFolders,
        // The runner's own tool cache sits in its work folder on a self-hosted runner: it
        // may be inside the runner's folders, but must hold none of them.
        toolCache !== null && real === (await realpath(toolCache).catch(() => null)),
      ));
    if (problem !== null) {
      refuse(`${problem}; it would show the runner's or the worker's private files`);
      continue;
    }
    if (shown.folders.some((folder) => within(real, folder))) continue;
    shown.folders = shown.folders.filter((folder) => !within(folder, real));
    shown.folders.push(real);
  }
  shown.hiddenFiles = await credentialFilesIn(shown.folders);
  for (const folder of shown.folders) {
    const bin = path.join(folder, "bin");
    if ((await stat(bin).catch(() => null))?.isDirectory()) shown.binFolders.push(bin);
    else if (/(^|_)bin$/.test(path.basename(folder))) shown.binFolders.push(folder);
    if (path.basename(folder) === ".rustup") shown.env.RUSTUP_HOME = folder;
  }
  return shown;
}

// The Sandbox port on bubblewrap (DESIGN "Agents and models"; seed 000 §10: nothing an
// agent does escapes the workspace without crossing a checked boundary). Read-only system,
// the workspace the only writable folder, private /tmp, no network unless the role allows
// it, an environment of exactly request.env, and secrets on disk hidden: the invoking
// user's home, the main checkout of a worktree, and the repository config's credentials.

import { mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { CommandRequest, CommandResult, Sandbox } from "../../ports/sandbox.js";
import { bwrapArgs, isWithin } from "./bwrap-args.js";
import { SandboxUnavailableError } from "./errors.js";
import { findGitLayout, mainCheckoutOf, type GitLayout } from "./find-git-layout.js";
import { runProcess } from "./run-process.js";
import { sanitizeGitConfig } from "./sanitize-git-config.js";
import { validateRequest } from "./validate-request.js";

export interface BwrapSandboxOptions {
  /** The bwrap executable; a bare name is looked up on `searchPath`. Default `bwrap`. */
  bwrapPath?: string;
  /** PATH used to find bwrap itself (never passed into the sandbox). Default process PATH. */
  searchPath?: string;
  /** The invoking user's home, hidden under a tmpfs. Default os.homedir(); null: not hidden. */
  home?: string | null;
  /** More folders to hide, e.g. the workspace area that holds sibling workspaces. */
  hidePaths?: readonly string[];
  /** Monotonic milliseconds for durationMs. */
  now?: () => number;
}

export function createBwrapSandbox(options: BwrapSandboxOptions = {}): Sandbox {
  const bwrapPath = options.bwrapPath ?? "bwrap";
  const searchPath = options.searchPath ?? process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin";
  const home = options.home === undefined ? os.homedir() : options.home;
  const extraHidden = options.hidePaths ?? [];

  return {
    kind: "bwrap",
    async run(request: CommandRequest, runOptions?: { signal?: AbortSignal }) {
      await validateRequest(request);
      const cwd = await realpath(request.cwd);
      const layout = await findGitLayout(cwd);
      const scratch = await mkdtemp(path.join(os.tmpdir(), "cfa-sandbox-"));
      try {
        const overlays = layout ? await sanitizedConfigs(layout, scratch) : [];
        const candidates = [...(home === null ? [] : [home]), ...extraHidden];
        if (layout?.linked) candidates.push(mainCheckoutOf(layout));
        const args = bwrapArgs({
          cwd,
          argv: request.argv,
          env: request.env,
          network: request.network,
          hide: await hiddenFolders(candidates, cwd),
          readOnly: layout ? readOnlyGitPaths(layout) : [],
          overlays,
        });
        return await runBwrap(
          bwrapPath,
          args,
          cwd,
          searchPath,
          request,
          runOptions?.signal,
          options.now,
        );
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
  };
}

async function runBwrap(
  bwrapPath: string,
  args: string[],
  cwd: string,
  searchPath: string,
  request: CommandRequest,
  signal: AbortSignal | undefined,
  now: (() => number) | undefined,
): Promise<CommandResult> {
  try {
    return await runProcess({
      file: bwrapPath,
      args,
      cwd,
      // Only what finding bwrap needs; --clearenv empties it inside regardless.
      env: { PATH: searchPath },
      timeoutMs: request.timeoutMs,
      maxOutputBytes: request.maxOutputBytes,
      signal,
      ...(now ? { now } : {}),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new SandboxUnavailableError("missing", bwrapPath, "", { cause: error });
    }
    throw error;
  }
}

/**
 * The gitdirs, read-only: commands may read history but not rewrite hooks, config or refs
 * (hooks run later outside the sandbox, when the engine commits).
 */
function readOnlyGitPaths(layout: GitLayout): string[] {
  const paths = [layout.commonDir];
  if (!isWithin(layout.gitDir, layout.commonDir)) paths.push(layout.gitDir);
  if (!paths.some((p) => isWithin(layout.dotGit, p))) paths.push(layout.dotGit);
  return paths;
}

/** Config files shown with only their core and extensions sections. */
async function sanitizedConfigs(
  layout: GitLayout,
  scratch: string,
): Promise<{ source: string; target: string }[]> {
  const targets = [
    path.join(layout.commonDir, "config"),
    path.join(layout.commonDir, "config.worktree"),
    path.join(layout.gitDir, "config.worktree"),
  ];
  const overlays: { source: string; target: string }[] = [];
  for (const target of new Set(targets)) {
    const text = await readFile(target, "utf8").catch(() => null);
    if (text === null) continue;
    const source = path.join(scratch, `config-${overlays.length}`);
    await writeFile(source, sanitizeGitConfig(text), { mode: 0o644 });
    overlays.push({ source, target });
  }
  return overlays;
}

/**
 * Existing folders, symlinks resolved, that are worth a tmpfs: not `/`, not inside the
 * workspace (its bind would show them anyway), not under /tmp (already private), and not
 * inside another hidden folder.
 */
async function hiddenFolders(candidates: readonly string[], cwd: string): Promise<string[]> {
  const tmp = await realpath("/tmp").catch(() => "/tmp");
  const resolved: string[] = [];
  for (const candidate of candidates) {
    if (!path.isAbsolute(candidate)) continue;
    const real = await realpath(candidate).catch(() => null);
    if (real === null || real === "/") continue;
    const info = await stat(real).catch(() => null);
    if (!info?.isDirectory()) continue;
    if (isWithin(real, cwd) || isWithin(real, tmp)) continue;
    resolved.push(real);
  }
  const unique = [...new Set(resolved)];
  return unique.filter((p) => !unique.some((q) => q !== p && isWithin(p, q)));
}

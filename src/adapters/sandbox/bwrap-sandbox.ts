// The Sandbox port on bubblewrap (docs/sandbox.md: the root holds nothing of the host
// but an allowlist; docs/protocol.md#workspaces). The root is built from an allowlist
// of system folders (system-root.ts), not the host's `/`; the workspace is the only
// writable folder; /tmp and /dev/shm are private and size-capped; no network unless the
// role allows it; an environment of exactly request.env; per-command limits on processes,
// memory, file size and CPU time (limit-args.ts; pids-cgroup.ts as root); the repository's
// gitdirs read-only with their config's credentials hidden.

import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  DEFAULT_COMMAND_LIMITS,
  type BlockedRequest,
  type CommandRequest,
  type CommandResult,
  type ProcessRequest,
  type Sandbox,
} from "../../ports/sandbox.js";
import {
  BRIDGE_SCRIPT,
  pendingFor,
  proxyEnv,
  startEgressProxy,
  type ConnectionBudget,
  type EgressLimits,
  type EgressProxy,
  type ResolveUpstream,
} from "../egress/index.js";
import { bwrapArgs, isWithin } from "./bwrap-args.js";
import { CACHE_LAYOUT, cacheEnv, SANDBOX_HOME } from "./cache-env.js";
import { etcFiles } from "./etc-files.js";
import { SandboxUnavailableError } from "./errors.js";
import { findGitLayout, mainCheckoutOf, type GitLayout } from "./find-git-layout.js";
import { createPidsCgroup, JOIN_CGROUP_SCRIPT, type PidsCgroup } from "./pids-cgroup.js";
import { runProcess } from "./run-process.js";
import { spawnProcess } from "./spawn-process.js";
import { sanitizeGitConfig } from "./sanitize-git-config.js";
import { discoverSystemRoot, type SystemRoot } from "./system-root.js";
import { resolveToolchains, type ShownToolchains } from "./toolchain-paths.js";
import { mkdirNoLinks } from "./mkdir-no-links.js";
import { validateCaches, validateWritableFolder } from "./validate-caches.js";
import { validateRequest } from "./validate-request.js";

export interface BwrapSandboxOptions {
  /** The bwrap executable; a bare name is looked up on `searchPath`. Default `bwrap`. */
  bwrapPath?: string;
  /** util-linux's prlimit, by a path the sandbox shows (under /usr). Default /usr/bin/prlimit. */
  prlimitPath?: string;
  /** PATH used to find bwrap itself (never passed into the sandbox). Default process PATH. */
  searchPath?: string;
  /** The invoking user's home: hidden should a shown system folder hold it. Default os.homedir(). */
  home?: string | null;
  /** More folders to hide, e.g. the workspace area that holds sibling workspaces. */
  hidePaths?: readonly string[];
  /** What of the host to show; default: the allowlist as this host has it. */
  systemRoot?: SystemRoot;
  /**
   * How a root worker limits processes (RLIMIT_NPROC does not bind root): a pids cgroup
   * when one can be made, else the limit is not enforced and `warn` says so once. Tests
   * replace it.
   */
  pidsCgroup?: (max: number) => Promise<PidsCgroup | null>;
  /** Said once, e.g. that the process limit cannot be enforced here. */
  warn?: (message: string) => void;
  /** Monotonic milliseconds for durationMs. */
  now?: () => number;
  /**
   * The toolchains shown besides /usr; default: the tool cache and the runner image's
   * folders that exist here (toolchain-paths.ts), without a repository's readOnlyPaths.
   */
  toolchains?: ShownToolchains;
  /** The worker's environment, where the runner's variables are read. Default process.env. */
  hostEnv?: Readonly<Record<string, string | undefined>>;
  /** The node binary that runs the egress bridge inside; default this process's. */
  bridgeNode?: string;
  /** Where the egress proxy dials an allowed host; default DNS (egress-proxy.ts). Tests only. */
  resolveUpstream?: ResolveUpstream;
  /**
   * The egress proxies' bounds over the request's (egress-proxy.ts, connection-budget.ts).
   * Tests only: the flood test's positive control lifts them.
   */
  egress?: { limits?: Partial<EgressLimits>; budget?: ConnectionBudget };
}

/** bwrap's own two processes (the monitor and the sandbox's pid 1) live in the cgroup too. */
const BWRAP_TASKS = 2;

export function createBwrapSandbox(options: BwrapSandboxOptions = {}): Sandbox {
  const bwrapPath = options.bwrapPath ?? "bwrap";
  const prlimit = options.prlimitPath ?? "/usr/bin/prlimit";
  const searchPath = options.searchPath ?? process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin";
  const home = options.home === undefined ? os.homedir() : options.home;
  const extraHidden = options.hidePaths ?? [];
  const root = process.getuid?.() === 0;
  const pidsCgroup = options.pidsCgroup ?? ((max: number) => createPidsCgroup(max));
  let system: Promise<SystemRoot> | undefined;
  let toolchains: Promise<ShownToolchains> | undefined;
  let warned = false;
  const hostEnv = options.hostEnv ?? process.env;
  const bridgeNode = options.bridgeNode ?? process.execPath;

  /**
   * Everything a contained process needs, made ready: the bwrap launch line and what must be
   * cleaned up once the process is gone (the egress proxy, the pids cgroup, the scratch
   * folder). Shared by a command (`run`) and a long-lived process (`start`).
   */
  async function prepare(request: CommandRequest | ProcessRequest): Promise<Prepared> {
    await validateRequest(request);
    const limits = request.limits ?? DEFAULT_COMMAND_LIMITS;
    const shown = await (system ??= options.systemRoot
      ? Promise.resolve(options.systemRoot)
      : discoverSystemRoot());
    const tools = await (toolchains ??= options.toolchains
      ? Promise.resolve(options.toolchains)
      : resolveToolchains({ home, env: hostEnv, private: extraHidden }));
    const cwd = await realpath(request.cwd);
    const writableRules = { readOnly: tools.folders, hidden: extraHidden };
    const caches = await validateCaches(request.caches ?? [], cwd, writableRules);
    const givenHome =
      request.home === undefined
        ? null
        : await validateWritableFolder("home", request.home, cwd, writableRules);
    // The bash tool's session folder: bound read-write like a cache, checked like one.
    const stateDir =
      request.stateDir === undefined
        ? undefined
        : await validateWritableFolder("stateDir", request.stateDir, cwd, writableRules);
    const layout = await findGitLayout(cwd);
    const scratch = await mkdtemp(path.join(os.tmpdir(), "cfa-sandbox-"));
    let cgroup: PidsCgroup | null = null;
    let proxy: EgressProxy | null = null;
    const cleanup = async () => {
      await proxy?.close();
      await cgroup?.remove();
      await rm(scratch, { recursive: true, force: true });
    };
    try {
      const overlays = layout ? await sanitizedConfigs(layout, scratch) : [];
      if (tools.hiddenFiles.length > 0) {
        const empty = path.join(scratch, "empty");
        await writeFile(empty, "", { mode: 0o444 });
        for (const target of tools.hiddenFiles) overlays.push({ source: empty, target });
      }
      const readOnly = layout ? readOnlyGitPaths(layout) : [];
      const candidates = [...(home === null ? [] : [home]), ...extraHidden];
      if (layout?.linked) candidates.push(mainCheckoutOf(layout));
      const env = commandEnv(request.env, tools);
      // HOME is never the worktree: the workspace's private folder, or a throwaway one.
      let commandHome = givenHome;
      if (commandHome === null) {
        commandHome = path.join(scratch, "home");
        await mkdir(commandHome, { mode: 0o700 });
      }
      env.HOME = SANDBOX_HOME;
      // The shared caches' data parts, bound where the tool looks in the private home.
      const homeBinds: { source: string; target: string }[] = [];
      for (const cache of caches) {
        for (const part of CACHE_LAYOUT[cache.tool].parts) {
          const source = path.join(cache.path, part.shared);
          await mkdir(source, { recursive: true });
          // The mount point is made in the private home, never through a link in it.
          await mkdirNoLinks(commandHome, part.at);
          homeBinds.push({ source, target: `${SANDBOX_HOME}/${part.at}` });
        }
        Object.assign(env, cacheEnv(cache.tool, SANDBOX_HOME));
      }
      const shared = request.network === true;
      let egress: { socket: string; node: string; bridge: string } | undefined;
      if (typeof request.network === "object") {
        const socket = path.join(scratch, "egress.sock");
        const bridge = path.join(scratch, "bridge.cjs");
        await writeFile(bridge, BRIDGE_SCRIPT, { mode: 0o444 });
        proxy = await startEgressProxy({
          socketPath: socket,
          hosts: request.network.hosts,
          command: request.argv,
          limits: {
            connections: limits.connections,
            pending: pendingFor(limits.connections),
            ...options.egress?.limits,
          },
          ...(options.egress?.budget ? { budget: options.egress.budget } : {}),
          ...(options.resolveUpstream ? { resolve: options.resolveUpstream } : {}),
        });
        egress = { socket, node: await realpath(bridgeNode), bridge };
        Object.assign(env, proxyEnv(env));
      }
      const args = bwrapArgs({
        system: shown,
        cwd,
        argv: request.argv,
        env,
        network: shared,
        ...(egress ? { egress } : {}),
        toolchains: tools.folders,
        ...(stateDir === undefined ? {} : { stateDir }),
        home: commandHome,
        homeBinds,
        limits,
        prlimit,
        etcFiles: await writeEtcFiles(scratch, shared),
        hide: await hiddenFolders(candidates, cwd, [
          ...shown.folders,
          ...tools.folders,
          ...readOnly,
        ]),
        readOnly,
        overlays,
      });
      if (root) {
        cgroup = await pidsCgroup(limits.processes + BWRAP_TASKS);
        if (cgroup === null && !warned) {
          warned = true;
          options.warn?.(
            "cfa/sandbox: running as root without a pids cgroup this process can create: the per-command process limit is not enforced (run the worker as an ordinary user, where RLIMIT_NPROC applies)",
          );
        }
      }
      const launch = cgroup
        ? { file: "/bin/sh", args: ["-c", JOIN_CGROUP_SCRIPT, cgroup.procs, bwrapPath, ...args] }
        : { file: bwrapPath, args };
      const blocked = () => (proxy as EgressProxy | null)?.blocked() ?? [];
      return { launch, cwd, blocked, cleanup };
    } catch (error) {
      await cleanup();
      throw error;
    }
  }

  return {
    kind: "bwrap",
    async run(request: CommandRequest, runOptions?: { signal?: AbortSignal }) {
      const ready = await prepare(request);
      try {
        const result = await runBwrap(
          ready.launch,
          bwrapPath,
          ready.cwd,
          searchPath,
          request,
          runOptions?.signal,
          options.now,
        );
        const blocked = ready.blocked();
        return blocked.length > 0 ? { ...result, blocked } : result;
      } finally {
        await ready.cleanup();
      }
    },

    async start(request: ProcessRequest) {
      const ready = await prepare(request);
      try {
        return await spawnProcess({
          file: ready.launch.file,
          args: ready.launch.args,
          cwd: ready.cwd,
          // Only what finding bwrap needs; --clearenv empties it inside regardless.
          env: { PATH: searchPath },
          stderrBytes: request.stderrBytes,
          cleanup: ready.cleanup,
          blocked: ready.blocked,
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") {
          throw new SandboxUnavailableError("missing", bwrapPath, "", { cause: error });
        }
        throw error;
      }
    },
  };
}

interface Prepared {
  launch: { file: string; args: string[] };
  cwd: string;
  blocked: () => BlockedRequest[];
  cleanup: () => Promise<void>;
}

async function runBwrap(
  launch: { file: string; args: string[] },
  bwrapPath: string,
  cwd: string,
  searchPath: string,
  request: CommandRequest,
  signal: AbortSignal | undefined,
  now: (() => number) | undefined,
): Promise<CommandResult> {
  try {
    return await runProcess({
      file: launch.file,
      args: launch.args,
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
 * The command's environment: the request's, with the shown toolchains' program folders
 * appended to PATH when it lacks them, and their variables where the request sets none.
 */
function commandEnv(
  requested: Readonly<Record<string, string>>,
  tools: ShownToolchains,
): Record<string, string> {
  const env = { ...requested };
  const entries = (env.PATH ?? "").split(":").filter((entry) => entry !== "");
  for (const bin of tools.binFolders) if (!entries.includes(bin)) entries.push(bin);
  if (entries.length > 0) env.PATH = entries.join(":");
  for (const [name, value] of Object.entries(tools.env)) env[name] ??= value;
  return env;
}

/** passwd, group and (without network) hosts for the sandbox's /etc, written to `scratch`. */
async function writeEtcFiles(
  scratch: string,
  network: boolean,
): Promise<{ source: string; target: string }[]> {
  const id = { uid: process.getuid?.() ?? 65534, gid: process.getgid?.() ?? 65534 };
  const files: { source: string; target: string }[] = [];
  for (const [name, text] of Object.entries(etcFiles(id, network))) {
    const source = path.join(scratch, `etc-${name}`);
    await writeFile(source, text, { mode: 0o644 });
    files.push({ source, target: `/etc/${name}` });
  }
  return files;
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
 * Existing folders, symlinks resolved, that the sandbox would otherwise show: inside a
 * shown system folder or gitdir, not inside the workspace (its bind shows it anyway), not
 * `/`, and not inside another hidden folder. Anywhere else they are absent already.
 */
async function hiddenFolders(
  candidates: readonly string[],
  cwd: string,
  shown: readonly string[],
): Promise<string[]> {
  const resolved: string[] = [];
  for (const candidate of candidates) {
    if (!path.isAbsolute(candidate)) continue;
    const real = await realpath(candidate).catch(() => null);
    if (real === null || real === "/") continue;
    const info = await stat(real).catch(() => null);
    if (!info?.isDirectory()) continue;
    if (isWithin(real, cwd) || !shown.some((folder) => isWithin(real, folder))) continue;
    resolved.push(real);
  }
  const unique = [...new Set(resolved)];
  return unique.filter((p) => !unique.some((q) => q !== p && isWithin(p, q)));
}

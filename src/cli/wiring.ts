// Wiring real adapters for the local forge: with worker/wire-github.ts (both over the shared
// src/wiring), the only place that builds EngineDeps from concrete adapters.

import { join, resolve } from "node:path";
import { gitClient } from "../git/git-client.js";
import { createGitWorkspaces } from "../adapters/git/index.js";
import { LocalForge } from "../adapters/local/local-forge.js";
import type { CfaConfig } from "../config/index.js";
import type { EngineDeps, ProgressLine } from "../engine/index.js";
import type { Clock } from "../ports/clock.js";
import { systemClock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import { noopLogger } from "../ports/logger.js";
import type { Model } from "../ports/model.js";
import type { ToolSetName } from "../records/tool-sets.js";
import { outboundForge } from "../comments/outbound-forge.js";
import { processRedactor } from "../secrets/index.js";
import { priceOf, resolveModel, sandboxesHiding } from "../wiring/index.js";
import { cliName } from "./command.js";
import { gitTry } from "./git-text.js";
import { defaultWorkRoot } from "./work-root.js";

export { defaultWorkRoot } from "./work-root.js";

export async function localForgeDir(repoDir: string): Promise<string> {
  const common = (await gitClient(repoDir).raw(["rev-parse", "--git-common-dir"])).trim();
  return join(resolve(repoDir, common), "cfa-local");
}

/**
 * `init.defaultBranch` as the person's own git reads it (every config file: the engine's
 * hardened git reads none but the repository's), for the first resolution of the default
 * branch (adapters/local/find-default-branch.ts).
 */
async function initDefaultBranch(repoDir: string): Promise<string | null> {
  return (await gitTry(repoDir, ["config", "--get", "init.defaultBranch"]))?.trim() || null;
}

/** The local forge's default branch (recorded once; never the checkout's HEAD). */
export async function localDefaultBranch(repoDir: string): Promise<string> {
  const forge = new LocalForge({
    repoDir,
    dataDir: await localForgeDir(repoDir),
    clock: systemClock,
    person: "",
    initDefaultBranch: await initDefaultBranch(repoDir),
  });
  return forge.defaultBranch();
}

export interface LocalWiring {
  repoDir: string;
  workRoot?: string;
  model: Model;
  clock?: Clock;
  logger?: Logger;
  person?: string;
  progress?: (line: ProgressLine) => void;
  /** After each commit of a job's records (the live log reads them: live-records-log.ts). */
  recorded?: (job: number, worktree: string, when: "opened" | "committed") => void;
  env?: Record<string, string | undefined>;
  /** The tools a job started now gets; absent: `classic` (EngineDeps.toolSet). */
  toolSet?: ToolSetName;
  /** Points the model at the configured provider once a wake has read the configuration. */
  configure?: (config: CfaConfig) => void;
}

export async function wireLocal(
  options: LocalWiring,
): Promise<{ deps: EngineDeps; forge: LocalForge }> {
  const repoDir = resolve(options.repoDir);
  const clock = options.clock ?? systemClock;
  const workRoot = options.workRoot ?? defaultWorkRoot(repoDir);
  const logger = options.logger ?? noopLogger;
  // What the bot writes on the local forge passes the redactor, as on GitHub.
  const forge = outboundForge(
    new LocalForge({
      repoDir,
      dataDir: await localForgeDir(repoDir),
      clock,
      person: options.person ?? process.env.USER ?? "you",
      onTakeOver: (line) => logger.warn(`cfa/local: ${line}`),
      initDefaultBranch: await initDefaultBranch(repoDir),
    }),
    processRedactor(),
  );
  const sandboxes = sandboxesHiding(workRoot, logger);
  const deps: EngineDeps = {
    forge,
    model: options.model,
    resolveModel,
    price: priceOf,
    sandbox: (mode) => sandboxes.sandbox(mode),
    workspaces: (area, options) =>
      createGitWorkspaces({ repoDir, area, logger, now: () => clock.now(), ...options }),
    repoDir,
    workRoot,
    clock,
    logger,
    env: options.env ?? process.env,
    ...(options.toolSet === undefined ? {} : { toolSet: options.toolSet }),
    // The local forge is a file: a running wake may look for `cfa intervene` at every call.
    commandPollMs: 0,
    // No sweep here: a person carries a stopped job on.
    carryOn: (job) => `\`${cliName(options.env ?? process.env)} resume ${job}\``,
    ...(options.progress ? { progress: options.progress } : {}),
    ...(options.recorded ? { recorded: options.recorded } : {}),
    configure: (config) => {
      // The repository's read-only paths reach the sandbox made after this.
      sandboxes.configure(config);
      options.configure?.(config);
    },
  };
  return { deps, forge };
}

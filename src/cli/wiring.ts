// Wiring real adapters for the local forge: the only place (with app/ and worker/) that
// builds EngineDeps from concrete adapters.

import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { gitClient } from "../git/git-client.js";
import { costOf, DEFAULT_MODELS, isKnownModel } from "../adapters/anthropic/index.js";
import { createGitWorkspaces } from "../adapters/git/index.js";
import { LocalForge } from "../adapters/local/local-forge.js";
import { createSandbox, type SandboxMode } from "../adapters/sandbox/index.js";
import { isModelTier, type CfaConfig } from "../config/index.js";
import type { EngineDeps, ProgressLine } from "../engine/engine-deps.js";
import type { Clock } from "../ports/clock.js";
import { systemClock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import { noopLogger } from "../ports/logger.js";
import type { Model, ModelUsage } from "../ports/model.js";
import type { Sandbox } from "../ports/sandbox.js";
import { processRedactor, redactingForge } from "../secrets/index.js";

export function resolveModel(tierOrModel: string): string {
  return isModelTier(tierOrModel) ? DEFAULT_MODELS[tierOrModel] : tierOrModel;
}

export function priceOf(model: string, usage: ModelUsage): number {
  // A model missing from the price table is a configuration the operator chose; its cost is
  // not guessed (and so cannot trip the cost cap).
  return isKnownModel(model) ? costOf(model, usage) : 0;
}

/** Where a repository's job areas live: outside its work tree, one folder per repository. */
export function defaultWorkRoot(repoDir: string): string {
  const base = process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache");
  const id = createHash("sha256").update(resolve(repoDir)).digest("hex").slice(0, 12);
  return join(base, "cfa-bot", "work", id);
}

export async function localForgeDir(repoDir: string): Promise<string> {
  const common = (await gitClient(repoDir).raw(["rev-parse", "--git-common-dir"])).trim();
  return join(resolve(repoDir, common), "cfa-local");
}

export interface LocalWiring {
  repoDir: string;
  workRoot?: string;
  model: Model;
  clock?: Clock;
  logger?: Logger;
  person?: string;
  progress?: (line: ProgressLine) => void;
  env?: Record<string, string | undefined>;
  /** Points the model at the configured provider once a wake has read the configuration. */
  configure?: (config: CfaConfig) => void;
}

export async function wireLocal(
  options: LocalWiring,
): Promise<{ deps: EngineDeps; forge: LocalForge }> {
  const repoDir = resolve(options.repoDir);
  const clock = options.clock ?? systemClock;
  const workRoot = options.workRoot ?? defaultWorkRoot(repoDir);
  // What the bot writes on the local forge passes the redactor, as on GitHub.
  const forge = redactingForge(
    new LocalForge({
      repoDir,
      dataDir: await localForgeDir(repoDir),
      clock,
      person: options.person ?? process.env.USER ?? "you",
    }),
    processRedactor(),
  );
  const sandboxes = new Map<SandboxMode, Promise<Sandbox>>();
  const logger = options.logger ?? noopLogger;
  const deps: EngineDeps = {
    forge,
    model: options.model,
    resolveModel,
    price: priceOf,
    sandbox: (mode) => {
      let made = sandboxes.get(mode);
      if (!made)
        sandboxes.set(
          mode,
          (made = createSandbox(mode, {
            hidePaths: [workRoot],
            warn: (message) => logger.warn(message),
          })),
        );
      return made;
    },
    workspaces: (area) => createGitWorkspaces({ repoDir, area, logger, now: () => clock.now() }),
    repoDir,
    workRoot,
    clock,
    logger,
    env: options.env ?? process.env,
    // The local forge is a file: a running wake may look for `cfa intervene` at every call.
    commandPollMs: 0,
    ...(options.progress ? { progress: options.progress } : {}),
    ...(options.configure ? { configure: options.configure } : {}),
  };
  return { deps, forge };
}

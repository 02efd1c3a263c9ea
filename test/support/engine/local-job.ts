// A local job on a real temporary git repository, driven by a scripted model: the harness
// of the engine's end-to-end tests.

import { join } from "node:path";
import { wireLocal } from "../../../src/cli/wiring.js";
import type { EngineDeps, ProgressLine } from "../../../src/engine/index.js";
import { steppingClock, type Clock } from "../../../src/ports/clock.js";
import type { LocalForge } from "../../../src/adapters/local/local-forge.js";
import type { Model } from "../../../src/ports/model.js";
import type { Logger } from "../../../src/ports/logger.js";
import { makeTempRepo } from "../git/temp-repo.js";
import type { WorkspaceOptions } from "../../../src/ports/workspaces.js";
import { createConversationModel, type ConversationModel } from "./conversation-model.js";
import type { CrashSeam } from "./crash-seam.js";

export interface LocalJob {
  root: string;
  repoDir: string;
  workRoot: string;
  /** The local forge as a person sees it (open issues, review, comment). */
  forge: LocalForge;
  /** The model the engine talks to (a conversation-positioned scripted model by default). */
  model: Model;
  deps: EngineDeps;
  lines: ProgressLine[];
  warnings: string[];
  /** New deps over the same repository, work dir and forge data: the next process. */
  reopen(seam?: CrashSeam): Promise<EngineDeps>;
  cleanup(): Promise<void>;
}

export { git } from "../git/temp-repo.js";

export async function createLocalJob(options: {
  recording?: unknown;
  model?: Model;
  config?: string;
  files?: Record<string, string>;
  seam?: CrashSeam;
  /** Where the job's temp tree goes (created); a fresh temp dir by default. */
  root?: string;
  /**
   * The order ended turns are applied in (engine/apply/turn-scheduler.ts). Default `started`,
   * as for a replay: these jobs play scripts whose steps assume an order of replies, and the
   * order turns end in depends on the machine's load. Tests of the live order pass `finished`.
   */
  applyOrder?: "finished" | "started";
}): Promise<LocalJob> {
  const temp = makeTempRepo({
    prefix: "cfa-e2e-",
    ...(options.root === undefined ? {} : { root: options.root }),
    files: {
      "README.md": "# demo\n",
      ...options.files,
      ...(options.config === undefined ? {} : { ".github/cfa.yml": options.config }),
    },
  });
  const { root, repo: repoDir } = temp;
  const workRoot = join(root, "work");
  const model: Model =
    options.model ?? createConversationModel(options.recording ?? { version: 1, instances: {} });
  const lines: ProgressLine[] = [];
  const warnings: string[] = [];
  // One clock across wakes, so time only moves forward as it would between processes.
  const clock: Clock = steppingClock("2026-11-22T10:00:00.000Z");
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (message) => warnings.push(message),
    error: (message) => warnings.push(message),
  };

  const wire = async (seam?: CrashSeam) => {
    const wired = await wireLocal({
      repoDir,
      workRoot,
      model: seam ? seam.model(model) : model,
      clock,
      logger,
      person: "ana",
      progress: (line) => lines.push(line),
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        GITHUB_TOKEN: "ghs_secret",
        ANTHROPIC_API_KEY: "sk-ant-secret",
      },
    });
    wired.deps.applyOrder = options.applyOrder ?? "started";
    if (!seam) return wired;
    const workspaces = wired.deps.workspaces;
    return {
      forge: wired.forge,
      deps: {
        ...wired.deps,
        forge: seam.forge(wired.deps.forge),
        workspaces: (area: string, options?: WorkspaceOptions) =>
          seam.workspaces(workspaces(area, options)),
      },
    };
  };

  const { deps, forge } = await wire(options.seam);
  return {
    root,
    repoDir,
    workRoot,
    forge,
    model,
    deps,
    lines,
    warnings,
    reopen: async (seam) => (await wire(seam)).deps,
    cleanup: async () => temp.cleanup(),
  };
}

export function asConversationModel(model: Model): ConversationModel {
  if (!("unplayed" in model)) throw new Error("test: this job's model is not a conversation model");
  return model as ConversationModel;
}

// Everything the engine needs from outside, passed in as options, so tests wire fakes without
// patching modules. Only app/, worker/ and cli/ build these.

import type { CfaConfig } from "../../config/index.js";
import type { Clock } from "../../ports/clock.js";
import type { Forge } from "../../ports/forge.js";
import type { Logger } from "../../ports/logger.js";
import type { Model, ModelUsage } from "../../ports/model.js";
import type { TaskRuns } from "../../ports/task-runs.js";
import type { Sandbox } from "../../ports/sandbox.js";
import type { WorkspaceOptions, Workspaces } from "../../ports/workspaces.js";
import type { ToolSetName } from "../../records/tool-sets.js";

export interface EngineDeps {
  forge: Forge;
  model: Model;
  /**
   * Called once the repository's configuration is read, before any model call: lets the
   * wiring point `model` at the configured provider (Anthropic, Bedrock or Vertex). Absent:
   * `model` as it is.
   */
  configure?(config: CfaConfig): void;
  /** A role's configured tier or model id → the model id to request. */
  resolveModel(tierOrModel: string): string;
  /** USD for one model call's usage (a price table); unknown models are an error there. */
  price(model: string, usage: ModelUsage): number;
  /**
   * The command sandbox for the repository's configured mode (`require` or `off`); created
   * when a command first runs, so a job that runs no command never needs bubblewrap.
   */
  sandbox(mode: "require" | "off"): Promise<Sandbox>;
  /** Worktrees of the job's repository under `area` (one area per job). */
  workspaces(area: string, options?: WorkspaceOptions): Workspaces;
  /** The job's repository: a clone (GitHub) or the local repository (local forge). */
  repoDir: string;
  /** Where job areas live, outside the repository's tree: `<workRoot>/<N>/…`. */
  workRoot: string;
  clock: Clock;
  logger: Logger;
  /**
   * Starting a task in a workflow run of its own, and watching it. Absent:
   * every task runs in the lead's run (`execute.runners: single`), whatever the config says.
   */
  taskRuns?: TaskRuns;
  /** The environment commands start from, before the allowlist reduces it. */
  env: Record<string, string | undefined>;
  /**
   * The tools a job started by this engine gets (src/records/tool-sets.ts); a job keeps its
   * set for life. Absent: `classic`, what recordings made before sets had names were made with
   * — the live entry points pass CURRENT_TOOL_SET, a replay its recording's set.
   */
  toolSet?: ToolSetName;
  /**
   * Monotonic milliseconds for turn deadlines (limits.turnTimeoutSeconds); default
   * `performance.now`. Records use `clock`; this only measures how long a turn has run.
   */
  monotonic?: () => number;
  /**
   * How often, at most, a running wake looks for new commands at its model-call boundaries
   * (poll-interventions.ts), in ms; default 10000. The local forge is a file: 0 is fine there.
   */
  commandPollMs?: number;
  /**
   * The order ended turns are applied in (engine/apply/turn-scheduler.ts): `finished`
   * (default; live models) as they end, `started` as they started — for replays of a
   * recording, whose records must come out the same at every replay.
   */
  applyOrder?: "finished" | "started";
  /**
   * False: the response journal is kept in the job area's file only, never mirrored on the
   * branch `cfa-journal/<N>` (journal-branch.ts), which outlives a runner's area. For replays
   * of a recording: their responses are the recording's, nothing is paid that a lost area
   * could make the job pay again — and the branch cost a git process per response.
   */
  journalBranch?: boolean;
  /**
   * How a person carries on a job the wake stopped live (an outage, refused credentials), in
   * words: the CLI's "`cfa resume 1`". Default: the next event on the issue, or the sweep.
   */
  carryOn?: (job: number) => string;
  /** The live, human-readable log (docs/protocol.md#run-visibility): one call per notable event. */
  progress?: (line: ProgressLine) => void;
  /**
   * Called with the job worktree's root when a wake opens job `job` ("opened": its records
   * are what the branch holds) and after each commit of them ("committed"): the CLI's live
   * log renders what the records say, as `cfa watch` does (so the two agree), not the
   * moment-by-moment progress lines, whose order and clock are the engine code's.
   */
  recorded?: (job: number, worktree: string, when: "opened" | "committed") => void;
}

export interface ProgressLine {
  at: string;
  job: number;
  /** Who: "INTENT", "intent-lead", "worker@dispatch:api", "GATE", "HUMAN", … */
  who: string;
  event: string;
  detail: string;
  /** Per-task lines are shown only with --verbose. */
  verbose?: boolean;
}

// The engine's bookkeeping inside state.json (`job.engine`): what must survive a crash so
// that a wake neither repeats an effect nor forgets one.

import * as z from "zod";
import type { JobRecord } from "../protocol/job-record.js";
import { RecordError } from "../protocol/errors.js";
import { CommandEvidenceSchema } from "./command-evidence.js";
import { TOOL_SETS, UNNAMED_TOOL_SET, type ToolSetName } from "./tool-sets.js";
import { FollowUpRequestSchema } from "./follow-up-request.js";

/** A decision's note kept in state.json, at most (characters): the lead hears it whole. */
export const DECISION_NOTE_KEPT = 2000;

export const EscalationMetaSchema = z.object({
  caller: z.string(),
  kind: z.enum(["question", "gate"]),
  state: z.string(),
  text: z.string(),
  artifact: z.string().optional(),
  /** The ask_question tool call the answer resolves in the caller's transcript. */
  toolUseId: z.string().optional(),
  /** The commit the gate asks about, and the artifact's blob in it (approval integrity). */
  gateSha: z.string().optional(),
  gateBlob: z.string().optional(),
  /** Seq of the comment that asked the person, once posted. */
  postedSeq: z.number().int().optional(),
  /** When it was put to the person (the engine's clock): a gate's reminder counts from it. */
  postedAt: z.string().optional(),
  /** When the one reminder of this gate was queued. */
  remindedAt: z.string().optional(),
  /** Files the proxy read in the caller's workspace to form its view. */
  proxyRead: z.array(z.string()).optional(),
  /** The framed question the proxy put to the person. */
  framed: z.string().optional(),
  answeredBy: z.string().optional(),
  /** When it was answered (the engine's clock); absent in older records. */
  answeredAt: z.string().optional(),
  /**
   * A gate's decision note: the review's body, or `cfa approve --note`, `cfa reject
   * --comment`; redacted and cut to DECISION_NOTE_KEPT characters.
   */
  note: z.string().optional(),
  /** `superseded`: the caller asked for review again before anyone answered this gate. */
  verdict: z.enum(["approved", "changes", "answer", "withdraw", "superseded"]).optional(),
});
export type EscalationMeta = z.infer<typeof EscalationMetaSchema>;

export const TaskMetaSchema = z.object({
  thread: z.string(),
  branch: z.string(),
  dir: z.string(),
  /** The parent's commit the task's branch started from ("" while it is queued). */
  base: z.string(),
  brief: z.string(),
  /** `queued`: waiting for a free slot under the fan-out cap ([send-block]). */
  status: z.enum(["queued", "open", "merged", "conflict", "dropped"]),
  verifyFailures: z.number().int().nonnegative(),
  lastVerdict: z.enum(["pass", "fail"]).optional(),
  /**
   * The task that dispatched this one (a nested dispatch); absent: the state's lead did. Its branch
   * starts from the parent's and merges back into it.
   */
  parent: z.string().optional(),
  /** Files copied from the parent's workspace when a queued task starts. */
  files: z.array(z.string()).optional(),
  /** Verifier runs so far (each on its own thread); absent in older records: the failures. */
  verifyRuns: z.number().int().nonnegative().optional(),
  /** The head the verifier last passed: a merge of any other head is verified first. */
  verifiedHead: z.string().optional(),
  /** The commands the last verifier run ran, as the engine saw them: its verdict's evidence. */
  verifierEvidence: z.array(CommandEvidenceSchema).optional(),
  /** The commands the worker's latest turn ran, as the engine saw them. */
  workerEvidence: z.array(CommandEvidenceSchema).optional(),
  /**
   * When its workspace was made (the engine's clock): how long a task takes, start to merge
   * or drop, is what `execute.runners: auto` expects of the next.
   */
  startedAt: z.string().optional(),
  /**
   * What its turns' commands lost sharing the runner with other commands (monotonic ms):
   * taken off its time when it ends, so the time measured is the task's alone.
   */
  contendedMs: z.number().nonnegative().optional(),
});
export type TaskMeta = z.infer<typeof TaskMetaSchema>;

/**
 * What the lead holds of a task that runs in its own workflow run: the fold's ledger
 * (src/engine/fanout/fold-task-records.ts) and the run the lead dispatched for its epoch. A task
 * run reads it from the job branch to know it is still the one the lead trusts
 * (src/engine/fanout/task-run-standing.ts); only the lead's run writes it.
 */
export const TaskLedgerSchema = z.object({
  epoch: z.number().int().min(1).max(1000),
  folded: z.number().int().nonnegative(),
  charged: z.record(z.string(), z.number().nonnegative()),
  allowanceUsd: z.number().nonnegative(),
  callUsd: z.number().nonnegative(),
  /** The Actions run dispatched for this epoch (null: GitHub did not say yet). */
  runId: z.string().nullable(),
  /** Deaths of this task's runs (watch-task-run.ts). */
  deaths: z.number().int().nonnegative(),
  /**
   * `folded` when this epoch's run was dispatched: a run that ends cleanly with nothing
   * folded since made no progress (watch-task-run.ts). Absent in ledgers written before.
   */
  foldedAtDispatch: z.number().int().nonnegative().optional(),
  /** Record keys refused so far: each refusal is said once. */
  refused: z.array(z.string()),
  /** Record keys whose turn timing `measured` holds: each counted once. Absent: none. */
  timed: z.array(z.string()).optional(),
  /**
   * Sub-tasks the worker dispatched in its folded records: their replies may open its later
   * turns in a later record (src/engine/fanout/subtree-mail.ts). Absent: none.
   */
  subtasks: z.array(z.string()).optional(),
});
export type TaskLedgerRecord = z.infer<typeof TaskLedgerSchema>;

export const EngineStateSchema = z.object({
  /** Last comment and review ids processed: ids only grow, so each is handled once. */
  cursor: z.object({
    comment: z.number().int(),
    review: z.number().int(),
    /**
     * The last comment read on the job's pull request (only `/cfa` is read there: a follow-up's
     * request, or a request while a job runs). Absent: none read yet.
     */
    pull: z.number().int().optional(),
  }),
  /** Next sequence number of a structured record comment. */
  seq: z.number().int().nonnegative(),
  statusComment: z.number().int().nullable(),
  pr: z.number().int().nullable(),
  nextEscalation: z.number().int().positive(),
  escalations: z.record(z.string(), EscalationMetaSchema),
  tasks: z.record(z.string(), TaskMetaSchema),
  /** The person the job is for: whose proxy answers and whose review counts first. */
  requester: z.string(),
  /**
   * The tools the job's agents have (tool-sets.ts), kept from its start so every later wake
   * gives the same. Absent: `classic`, the set of jobs started before sets had names.
   */
  toolSet: z.enum(TOOL_SETS).optional(),
  /**
   * Comments decided but not yet known to be posted (docs/protocol.md#recorded-decisions: the
   * decision is persisted before its effect). Each is posted at most once: before posting, the bot
   * looks for its own comment carrying the same seq.
   */
  outbox: z.array(
    z.object({
      seq: z.number().int(),
      kind: z.string(),
      body: z.string(),
      /** The template's own mentions in `body`, marked again when posted (src/comments/own-marks.ts). */
      own: z.array(z.object({ at: z.number().int().nonnegative(), target: z.string() })).optional(),
    }),
  ),
  /**
   * How many transitions of the history have had their effects run (threads closed, tasks released,
   * the PR readied or closed). A transition is committed before its effects
   * (docs/protocol.md#recorded-decisions); one a crash cut off from them is finished by the next
   * wake. Absent in records written before it existed: all settled.
   */
  settled: z.number().int().nonnegative().optional(),
  /**
   * Model calls charged to the job so far (usage and cost are in the job record). Each call
   * gets the next number in the response journal (response-journal.ts), so a journal entry
   * numbered above this was paid but not yet accounted here: accounted exactly once, when a
   * wake finds it. Absent in older records: 0.
   */
  calls: z.number().int().nonnegative().optional(),
  /**
   * Responses of turns not yet applied, carried on the branch only when a wake ended with
   * the model unavailable: the next runner replays them instead of paying
   * for them again. Written by the engine alone; an agent's edit of state.json never lasts
   * (the engine rewrites it from memory before every commit).
   */
  journal: z.array(z.string()).optional(),
  /**
   * Since when the job waits on the model's API: set when a wake ended
   * because the API stayed unavailable past the adapter's patience, cleared by the next
   * response. The job is live; the sweep or `cfa resume` wakes it again.
   */
  apiWait: z
    .object({
      since: z.string(),
      attempts: z.number().int().nonnegative(),
      last: z.string(),
      /** "credentials": the provider refused the installation's key. */
      reason: z.enum(["unavailable", "credentials"]).optional(),
    })
    .optional(),
  /**
   * Since when the job is paused because the runner's disk was full: set when
   * a wake met ENOSPC or EDQUOT, cleared once a round is applied again. The job is live; the
   * sweep or `cfa resume` wakes it again. `last`: what said so; `pauses`: in a row, so that
   * a round that fills the disk every time it is redone ends as a state-level failure.
   */
  diskFull: z
    .object({ since: z.string(), last: z.string(), pauses: z.number().int().positive() })
    .optional(),
  /**
   * The forge would not open a draft (GitHub Free or Pro, private repository): the pull
   * request was opened ready for review, and the status comment says so.
   */
  prNotDraft: z.literal(true).optional(),
  /**
   * A digest of the pull request body as last written: the body is written
   * again only when what it says changed, so at most once per transition. Absent: unknown
   * (a pull request found open, or records written before it existed), written at the next
   * wake's end.
   */
  prBody: z.string().optional(),
  /**
   * A person paused the job: no turn starts, no task is dispatched, no nudge or
   * retry is spent and the sweep leaves it alone until a `/resume`. `by` is the login,
   * `since` the engine's clock, `reason` the person's words (data, never instructions).
   */
  paused: z.object({ by: z.string(), since: z.string(), reason: z.string() }).optional(),
  /**
   * This job is a follow-up (docs/protocol.md#jobs-and-states): round `round` of its issue,
   * started after the job before it (`parent`) ended, on the same branch and pull request,
   * for what a person asked (`request`). `base`: the branch's head it started from (a push a
   * person made after the parent ended included); `parent.commit`: the parent's last
   * commit of its records. `priorTasks`: task ids the earlier rounds used, refused to this
   * one's leads so no branch or thread is named twice.
   */
  followUp: z
    .object({
      round: z.number().int().min(2),
      parent: z.object({
        round: z.number().int().positive(),
        state: z.enum(["DONE", "WITHDRAWN"]),
        commit: z.string(),
        dir: z.string(),
      }),
      base: z.string(),
      request: FollowUpRequestSchema,
      priorTasks: z.array(z.string()),
    })
    .optional(),
  /**
   * Paths under .github/workflows/ whose changes were held back: pushing them needs the app's
   * `workflows` permission.
   */
  workflowsHeldBack: z.array(z.string()).optional(),
  /**
   * The workspaces' setup — the last runs (bounded), and the failure the job waits
   * on (the person fixes the config, then `/retry` or `cfa resume`). Not a state-level failure.
   */
  setup: z
    .object({
      runs: z.array(
        z.object({
          /** "job", or the task id. */
          workspace: z.string(),
          at: z.string(),
          ok: z.boolean(),
          commands: z.array(CommandEvidenceSchema),
        }),
      ),
      failed: z
        .object({
          workspace: z.string(),
          command: z.string(),
          exitCode: z.number().int().nullable(),
          /** The output's last lines, redacted and clipped. */
          tail: z.string(),
          at: z.string(),
          /** The setup configuration that failed: a changed one is tried again at once. */
          digest: z.string(),
          /** A person asked to try again (`/retry`, or `cfa resume` locally). */
          retry: z.literal(true).optional(),
        })
        .optional(),
    })
    .optional(),
  /**
   * Tasks in their own runs, by task id; `single`: why the job's tasks run
   * in the lead's run from now on (no `task` job, or no permission to dispatch), said once.
   * Absent: no task has had a run of its own.
   */
  fanout: z
    .object({
      single: z.string().optional(),
      tasks: z.record(z.string(), TaskLedgerSchema),
    })
    .optional(),
  /**
   * What `execute.runners: auto` decides on, as the engine measured it: the task instances' applied
   * turns — how many, their wall time and the time their commands took, each as alone on the runner
   * (the engine's monotonic clock, ms) — and the tasks that ended (merged, in conflict or dropped
   * after they started), with their time from start to end (the engine's clock), less what their
   * commands lost to others'. Counters only, so they stay small however long the job; absent:
   * nothing measured.
   */
  measured: z
    .object({
      turns: z.number().int().nonnegative(),
      turnMs: z.number().nonnegative(),
      commandMs: z.number().nonnegative(),
      tasks: z.number().int().nonnegative(),
      taskMs: z.number().nonnegative(),
    })
    .optional(),
  /**
   * Requests the egress proxy refused, from agents' commands and from setup: deduplicated
   * (same host, port, protocol, reason and command: counted), bounded.
   */
  blocked: z
    .object({
      entries: z.array(
        z.object({
          host: z.string(),
          port: z.number().int(),
          protocol: z.enum(["http", "https", "tcp"]),
          reason: z.string(),
          command: z.string(),
          /** Who ran the command: "setup" or the instance (`worker@dispatch:api`). */
          by: z.string(),
          count: z.number().int().positive(),
          first: z.string(),
          last: z.string(),
        }),
      ),
      /** Refusals of kinds no longer listed (the least recently seen make room): counted only. */
      dropped: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * The repository's MCP servers that did not start, died or were left out, as the engine saw
   * it (`.mcp.json` itself not valid: server ""): one line each in the status comment. At
   * most MCP_PROBLEMS_KEPT; absent: none.
   */
  mcp: z
    .object({
      problems: z.array(
        z.object({
          server: z.string().max(64),
          reason: z.string().max(600),
          /** Who met it: the instance (`worker@dispatch:api`) or "wake" for the file. */
          by: z.string(),
          count: z.number().int().positive(),
          first: z.string(),
          last: z.string(),
        }),
      ),
    })
    .optional(),
});
export type EngineState = z.infer<typeof EngineStateSchema>;
export type FanoutRecord = NonNullable<EngineState["fanout"]>;
export type SetupRecord = NonNullable<EngineState["setup"]>;
export type SetupRun = SetupRecord["runs"][number];
export type SetupFailure = NonNullable<SetupRecord["failed"]>;
export type MeasuredRecord = NonNullable<EngineState["measured"]>;
export type BlockedEntry = NonNullable<EngineState["blocked"]>["entries"][number];
export type McpProblemEntry = NonNullable<EngineState["mcp"]>["problems"][number];
export const MCP_PROBLEMS_KEPT = 20;

export function initialEngineState(
  requester: string,
  toolSet: ToolSetName = UNNAMED_TOOL_SET,
): EngineState {
  return {
    // The unnamed set is left unnamed: such a job's records read as they did before sets.
    ...(toolSet === UNNAMED_TOOL_SET ? {} : { toolSet }),
    cursor: { comment: 0, review: 0 },
    seq: 1,
    statusComment: null,
    pr: null,
    nextEscalation: 1,
    escalations: {},
    tasks: {},
    requester,
    outbox: [],
    settled: 0,
  };
}

export function engineState(job: JobRecord): EngineState {
  const parsed = EngineStateSchema.safeParse(job.engine);
  if (!parsed.success) {
    throw new RecordError(z.prettifyError(parsed.error).replace(/\n/g, "; "), "state.json engine");
  }
  return parsed.data;
}

export function withEngineState(job: JobRecord, engine: EngineState): JobRecord {
  return { ...job, engine: engine as unknown as Record<string, unknown> };
}

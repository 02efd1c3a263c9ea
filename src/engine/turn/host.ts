// The TurnHost the engine gives each turn: every protocol-level tool call lands here, is
// checked against the soup (routing locality, docs/protocol.md#dispatch; the fan-out cap) and
// the state machine (the outcomes a skill may write, docs/protocol.md#skill-contract), and is
// queued as a payload for the turn's Send — nothing crosses the bus before the turn ends
// ([send-step]).

import { allowedOutcomes, isLiveState } from "../../protocol/fsm.js";
import type { Address } from "../../protocol/address.js";
import { addressKey, threads } from "../../protocol/address.js";
import type { Payload, Rejection } from "../../protocol/bus/index.js";
import type { OutcomeRecord } from "../../protocol/outcome-record.js";
import { canonicalJson } from "../../protocol/canonical-json.js";
import type { HostResult, Question, TurnHost } from "../../agents/turn-contract.js";
import { runCommand } from "../../agents/commands/index.js";
import { holdsSecret } from "../../secrets/index.js";
import type { RoleDefinition } from "../../agents/turn-contract.js";
import type { Workspace } from "../../ports/workspaces.js";
import type { CommandResult } from "../../ports/sandbox.js";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { runShell, type ShellOutcome } from "../../agents/shell/run-shell.js";
import { namedPrograms } from "../../agents/shell/named-programs.js";
import { PHASES } from "../../skills/phases.js";
import { containWorkspace, prepareWorkspace } from "../tree/contain-workspace.js";
import { JobRepo } from "../tree/job-repo.js";
import { OUTCOME_PATH, PROTECTED_PREFIXES, TASK_ID } from "../../records/job-paths.js";
import { readText, writeText } from "../tree/files.js";
import { roleOf, taskOfThread } from "../job/instances.js";
import type { Session } from "../job/session.js";
import { taskDepth } from "../job/task-depth.js";
import {
  commandLine,
  shellLine,
  evidenceOf,
  keepEvidence,
  type CommandEvidence,
} from "../../records/command-evidence.js";
import { applyChange, now } from "../job/session.js";
import { runtimeOf } from "./wake-runtime.js";
import { CommandClock } from "./command-clock.js";

/** What one turn decided, beyond its messages: read by applyTurn. */
export interface TurnDecisions {
  pending: Payload[];
  /** The id is allocated when the turn is applied (apply-turn.ts), in the order turns are applied. */
  ask: { question: Question } | null;
  finished: OutcomeRecord | null;
  verdict: TaskVerdict | null;
  proxy:
    | { kind: "answer"; text: string }
    | { kind: "escalate"; question: string }
    | { kind: "withdraw"; reason: string }
    | null;
  /** This job's records a command changed (only the engine writes them): the turn fails. */
  tampered: string[];
  /** Every command the turn ran, as the sandbox reported it (the evidence a verdict rests on). */
  commands: CommandEvidence[];
  /**
   * The time the turn's commands would have taken alone on this runner (every command, not
   * only the evidence kept; turn/command-clock.ts), by the engine's monotonic clock:
   * `execute.runners: auto` weighs it to choose which tasks get runs of their own.
   */
  commandMs: number;
  /** What the turn's commands took beyond that, sharing the runner with others (ms). */
  contendedMs: number;
}

/** A verifier's verdict on a task (docs/protocol.md#run-visibility). */
export interface TaskVerdict {
  verdict: "pass" | "fail";
  issues: string[];
  notes: string;
}

/**
 * Runs the verifier on a task: given to the host by whoever runs the turn, so that a turn's
 * tools do not import the tasks that run agents (the lead's `close` runs a whole verifier).
 */
export type VerifyTask = (task: string, signal?: AbortSignal) => Promise<TaskVerdict>;

export const emptyDecisions = (): TurnDecisions => ({
  pending: [],
  ask: null,
  finished: null,
  verdict: null,
  proxy: null,
  tampered: [],
  commands: [],
  commandMs: 0,
  contendedMs: 0,
});

const ok = (text: string): HostResult => ({ ok: true, text });
const refuse = (error: string): HostResult => ({ ok: false, error });

export function describeRejection(rejection: Rejection): string {
  switch (rejection.reason) {
    case "fan-out-cap":
      return "the fan-out cap is reached: close a task before dispatching another";
    case "not-visible":
      return "that instance is not one you can send to";
    case "thread-exists":
      return "a conversation with that id already exists; choose a new task id";
    case "not-parent":
      return "you can only close tasks you dispatched";
    case "terminated":
      return "that conversation has ended";
    case "blocked":
      return "that task has not started yet: it waits for a free slot (close one of your tasks)";
    default:
      return rejection.reason;
  }
}

export function createHost(
  s: Session,
  a: Address,
  role: RoleDefinition,
  ws: Workspace,
  decisions: TurnDecisions,
  options: {
    policyAllowsEscalate?: boolean;
    signal?: AbortSignal;
    /** The agent's protected prefixes; its commands are held to the same, not only its tools. */
    protect?: readonly string[];
    /** How `close` has a task verified; without it (a proxy, a verifier) nothing closes. */
    verify?: VerifyTask;
  } = {},
): TurnHost {
  /**
   * One command of the turn, in the sandbox: the workspace prepared before and contained after,
   * the time it took, what the proxy refused, and its evidence under `line`.
   */
  const execute = async (
    argv: string[],
    line: string,
    extra: {
      stateDir?: string;
      patchEnv?: (env: Record<string, string>) => Record<string, string>;
      allowlist?: false;
      unlisted?: string[];
    } = {},
  ): Promise<CommandResult> => {
    const name = roleOf(a);
    const repo = new JobRepo(ws.root, undefined, ws.gitDir, {
      logger: s.deps.logger,
      maxFileBytes: s.repo.maxFileBytes,
    });
    await prepareWorkspace(repo);
    const monotonic = s.deps.monotonic ?? (() => performance.now());
    const rt = runtimeOf(s);
    const clock = (rt.commandClock ??= new CommandClock(monotonic));
    const began = monotonic();
    const ticket = clock.start();
    let alone = 0;
    const result = await runCommand({
      sandbox: await s.deps.sandbox(s.config.sandbox),
      argv,
      workspaceRoot: ws.root,
      ...(ws.home === undefined ? {} : { home: ws.home }),
      role: {
        allowedCommands: role.commands,
        network: s.config.network[name],
        limits: s.config.commandLimits[name],
      },
      env: s.deps.env,
      ...(extra.stateDir === undefined ? {} : { stateDir: extra.stateDir }),
      ...(extra.patchEnv === undefined ? {} : { patchEnv: extra.patchEnv }),
      ...(extra.allowlist === false ? { allowlist: false } : {}),
      timeoutMs: s.config.limits.commandTimeoutSeconds * 1000,
      maxOutputBytes: s.config.limits.commandOutputBytes,
      ...(options.signal ? { signal: options.signal } : {}),
    }).finally(() => {
      alone = clock.end(ticket);
    });
    const wall = Math.max(0, monotonic() - began);
    decisions.commandMs += Math.min(wall, alone);
    decisions.contendedMs += Math.max(0, wall - alone);
    // What ran is recorded from the result, not from what the model says of it (evidence).
    const evidence = evidenceOf(line, result);
    const unlisted = extra.unlisted ?? [];
    decisions.commands.push(unlisted.length > 0 ? { ...evidence, unlisted } : evidence);
    if (result.blocked !== undefined && result.blocked.length > 0) {
      const command = line;
      applyChange(s, {
        type: "requests-blocked",
        by: addressKey(a),
        at: now(s),
        blocked: result.blocked.map((b) => ({
          host: b.host,
          port: b.port,
          protocol: b.protocol,
          reason: b.reason,
          command,
          count: b.count,
        })),
      });
    }
    // Whatever the command did, the engine's git and file access meet the tree only after
    // this check (nested repositories, links, changed records); the agent reads what it found.
    const jobWs = ws.root === s.jobWs.root;
    const contained = await containWorkspace(repo, {
      ...(ws.gitDir ? { gitDir: ws.gitDir } : {}),
      protect: options.protect ?? PROTECTED_PREFIXES,
      ownRecord: (file) =>
        jobWs &&
        (file.startsWith(`${s.paths.dir}/`) ||
          file.startsWith(".cfa/proxy/") ||
          file === OUTCOME_PATH ||
          file === ".cfa"),
    });
    decisions.tampered.push(...contained.tampered);
    if (contained.notes.length === 0) return result;
    const notes = contained.notes.join("\n");
    return { ...result, stderr: result.stderr === "" ? notes : `${result.stderr}\n${notes}` };
  };

  const queue = (payload: Payload): HostResult | null => {
    const rejection = s.soup.check(a, payload, decisions.pending);
    if (rejection) return refuse(describeRejection(rejection));
    decisions.pending.push(payload);
    return null;
  };

  return {
    async dispatch({ id, brief, files }) {
      const refused = runtimeOf(s).taskRun?.refuses("dispatch", a, decisions.pending);
      if (refused !== undefined) return refuse(refused);
      // A task id becomes a pushed branch name: never one that holds a secret,
      // and the refusal does not repeat it.
      if (holdsSecret(id)) {
        return refuse(
          "that task id holds a secret: choose a plain name (lowercase words and dashes)",
        );
      }
      if (!TASK_ID.test(id)) {
        return refuse(`task id "${id}" must be lowercase letters, digits and dashes (at most 40)`);
      }
      const known = s.engine.tasks[id];
      if (known && known.status !== "open" && known.status !== "queued") {
        return refuse(`task ${id} already ran (${known.status}); choose a new id`);
      }
      // A follow-up's task ids are its own: an earlier round's branch, thread and records
      // keep theirs (records/job-paths.ts).
      if (s.engine.followUp?.priorTasks.includes(id) === true) {
        return refuse(
          `task id ${id} was used by an earlier round of job #${s.n} (its branch and records keep that name); choose a new id`,
        );
      }
      const to = { agent: "worker", thread: threads.dispatch(id) };
      if (decisions.pending.some((p) => p.kind === "deliver" && p.to.thread === to.thread)) {
        return refuse(`task ${id} is already dispatched in this turn; choose a new id`);
      }
      // A task may itself dispatch further tasks (docs/protocol.md#dispatch), down to
      // `dispatchDepth` levels below the lead.
      const depth = taskDepth(s.engine.tasks, taskOfThread(a.thread) ?? undefined) + 1;
      if (depth > s.config.dispatchDepth) {
        return refuse(
          `sub-tasks nest at most ${s.config.dispatchDepth} levels below the lead; this would be level ${depth}: do the work yourself`,
        );
      }
      // The files to copy ride on the task's message, so the spark that starts it (now or
      // once a slot frees) has them: the workspace is made then (transitions.ts startTask).
      const content = {
        kind: "task",
        text: brief,
        ...(files.length > 0 ? { data: { files } } : {}),
      };
      const payload: Payload = { kind: "deliver", to, content };
      const rejection = s.soup.check(a, payload, decisions.pending);
      if (rejection) return refuse(describeRejection(rejection));
      const branch = s.paths.taskBranch(id);
      const waits = s.soup.blocks(a, payload, decisions.pending);
      decisions.pending.push(payload);
      if (waits) {
        // Past the fan-out cap the spark waits ([send-block], docs/protocol.md#configuration);
        // the agent is told.
        return ok(
          `Task ${id} is queued: you already have ${s.config.fanOut} tasks open (the fan-out cap). It starts as soon as you close one of them, on branch ${branch} made from your branch as it is then; until it starts it takes no messages.`,
        );
      }
      return ok(
        `Task ${id} starts when your turn ends, on branch ${branch} made from your branch with this turn's changes. Its worker will reply when done.`,
      );
    },

    async send(to, text) {
      let target: Address | null;
      if ("task" in to) {
        target = { agent: "worker", thread: threads.dispatch(to.task) };
      } else {
        const parent = s.soup.parentOf(a.thread);
        target = s.soup.visibleFrom(a).find((v) => v.thread === parent) ?? null;
        if (!target) return refuse("you have no parent conversation to reply to");
      }
      // A worker's reply carries the commands its turn ran so far, as the engine
      // recorded them; its parent reads them beside the reply, not only the model's account.
      const evidence =
        taskOfThread(a.thread) === null ? undefined : keepEvidence(decisions.commands);
      const payload: Payload = {
        kind: "deliver",
        to: target,
        content: { kind: "reply", text, ...(evidence ? { data: { evidence } } : {}) },
      };
      return queue(payload) ?? ok(`Delivered to ${addressKey(target)} when your turn ends.`);
    },

    async close(task) {
      const meta = s.engine.tasks[task];
      if (!meta) {
        // Dispatched in this very turn: it starts (or is queued) when the turn ends.
        const thread = threads.dispatch(task);
        if (decisions.pending.some((p) => p.kind === "deliver" && p.to.thread === thread)) {
          return refuse(`task ${task} has not started: it was dispatched in this turn`);
        }
        return refuse(`there is no task ${task}`);
      }
      if (meta.status === "queued") {
        return refuse(`task ${task} has not started: it starts when you close another task`);
      }
      if (meta.status !== "open") return refuse(`task ${task} is already ${meta.status}`);
      if (decisions.pending.some((p) => p.kind === "terminate" && p.thread === meta.thread)) {
        return refuse(`task ${task} is already being closed`);
      }
      const payload: Payload = { kind: "terminate", thread: meta.thread };
      const rejection = s.soup.check(a, payload, decisions.pending);
      if (rejection) return refuse(describeRejection(rejection));
      if (options.verify === undefined) return refuse("this turn cannot close tasks");
      const verdict = await options.verify(task, options.signal);
      if (verdict.verdict === "pass") {
        decisions.pending.push(payload);
        return ok(
          `The verifier passed task ${task}; it is merged into your branch when your turn ends.`,
        );
      }
      const issues = verdict.issues.map((i) => `- ${i}`).join("\n");
      const budget = s.config.retryBudget;
      if (s.engine.tasks[task]!.verifyFailures <= budget) {
        decisions.pending.push({
          kind: "deliver",
          to: { agent: "worker", thread: meta.thread },
          content: {
            kind: "verdict",
            text: `The verifier failed your task:\n${issues}\nFix these and reply again.`,
          },
        });
        return refuse(
          `the verifier failed task ${task}; the issues go back to its worker:\n${issues}`,
        );
      }
      return refuse(
        `the verifier failed task ${task} ${s.engine.tasks[task]!.verifyFailures} times (budget ${budget}); it will not be merged. Re-plan (finish with REPLAN) or dispatch the work differently.\n${issues}`,
      );
    },

    async ask(question) {
      const refused = runtimeOf(s).taskRun?.refuses("ask", a, decisions.pending);
      if (refused !== undefined) return refuse(refused);
      if (question.kind === "gate") {
        const state = s.job.state;
        if (!isLiveState(state) || roleOf(a) !== PHASES[state].lead) {
          return refuse("only the phase's lead asks for a gate review");
        }
        const expected = s.paths.artifact(PHASES[state].artifact);
        if (question.artifact !== undefined && question.artifact !== expected) {
          return refuse(`the artifact under review in ${state} is ${expected}`);
        }
        let text: string | null;
        try {
          text = await readText(ws.root, expected);
        } catch (error) {
          // A linked artifact (`ln -sfn /proc/self/environ PLAN.md`) is never read, let alone
          // shown to the person: it would post the engine's secrets.
          return refuse(
            `${expected} cannot be put to review: ${(error as Error).message}. Write it as a regular file`,
          );
        }
        if (text === null || text.trim() === "") {
          return refuse(`${expected} is missing or empty: write it before asking for review`);
        }
        const closing = new Set(
          decisions.pending.flatMap((p) => (p.kind === "terminate" ? [p.thread] : [])),
        );
        // The lead's own tasks: a sub-task merges or drops with the task above it.
        const open = Object.entries(s.engine.tasks).filter(
          ([, t]) =>
            t.parent === undefined &&
            (t.status === "open" || t.status === "queued") &&
            !closing.has(t.thread),
        );
        if (open.length > 0) {
          return refuse(
            `close or abandon your open tasks first: ${open.map(([id]) => id).join(", ")}`,
          );
        }
        question = { ...question, artifact: expected };
      }
      // No id yet: turns run in parallel, so an id taken here would depend on
      // which model call came back first; applyTurn allocates it in the order turns are applied.
      decisions.ask = { question };
      return ok("Asked. Your turn ends now; the answer arrives as your next message.");
    },

    async finish(record) {
      const state = s.job.state;
      if (!isLiveState(state)) return refuse(`the job is ${state}; there is nothing to finish`);
      const permitted = allowedOutcomes(state);
      if (!permitted.includes(record.outcome)) {
        return refuse(
          `${record.outcome} is not permitted in ${state} (permitted: ${permitted.join(", ")})`,
        );
      }
      await writeText(ws.root, OUTCOME_PATH, canonicalJson(record));
      decisions.finished = record;
      return ok(`Outcome ${record.outcome} recorded.`);
    },

    async verdict(verdict) {
      decisions.verdict = verdict;
      return ok(`Verdict ${verdict.verdict} recorded.`);
    },

    async proxyAnswer(text) {
      decisions.proxy = { kind: "answer", text };
      return ok("Answer recorded; it goes to the agent that asked.");
    },
    async proxyEscalate(question) {
      if (options.policyAllowsEscalate === false) {
        return refuse("the escalation policy for this state is `never`: answer from what you know");
      }
      decisions.proxy = { kind: "escalate", question };
      return ok("Escalated: the person will be asked.");
    },
    async proxyWithdraw(reason) {
      decisions.proxy = { kind: "withdraw", reason };
      return ok("Withdrawal recorded.");
    },

    runCommand(argv): Promise<CommandResult> {
      return execute(argv, commandLine(argv));
    },

    async runShell(call): Promise<ShellOutcome> {
      // The session lives outside every worktree, in the job area the sandbox hides: only its
      // dump folder is bound into the command's sandbox (src/agents/shell/run-shell.ts).
      const dir = join(s.area, ".shells", addressKey(a).replace(/[^\w@.-]/g, "_"));
      await mkdir(dir, { recursive: true });
      const line = shellLine(call.command ?? "");
      const unlisted = namedPrograms(call.command ?? "").filter((p) => !role.commands.includes(p));
      return runShell(call, {
        dir,
        root: ws.root,
        run: ({ argv, stateDir, patchEnv }) =>
          execute(argv, line, { stateDir, patchEnv, allowlist: false, unlisted }),
      });
    },
  };
}

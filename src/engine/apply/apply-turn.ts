// Applying a turn, one at a time (apply-ended.ts; turn-scheduler.ts decides the order): the Run
// ends ([send-step] / [nosend-step] / [ask-step]), a lead's outcome record is read and its
// transition applied, the transcript is written, the turn is judged (a success, a refused outcome,
// a broken turn) and committed (commit-turn.ts), then the effects its Send and transition call for
// are run.

import { escalationPolicy } from "../job/escalation-policy.js";
import { oneLine } from "../../comments/one-line.js";
import { addressKey, threads, type Address } from "../../protocol/address.js";
import type { BusEvent, Effect, TurnResult as SoupTurnResult } from "../../protocol/bus/index.js";
import { isLiveState, type State } from "../../protocol/fsm.js";
import { recordLeadProgress, recordSuccessfulTurn } from "../../protocol/failure.js";
import { pendingAsk } from "../../agents/loop/index.js";
import { nextEscalationId } from "../../records/record-changes.js";
import {
  append,
  applyChange,
  progress,
  type Conversation,
  type JobRecords,
  type Reporter,
  type Session,
} from "../job/session.js";
import { carryInterventions, pendingInterventions } from "../flow/intervene.js";
import { failState } from "../flow/fail-state.js";
import { currentLead, taskOfThread } from "../job/instances.js";
import {
  afterTransition,
  applyTransition,
  handleEffects,
  type TransitionApplied,
} from "../flow/transitions.js";
import { holdBackWorkflowChanges, tellHeldBack } from "./hold-back-workflows.js";
import type { AgentRun } from "../turn/agent-run.js";
import { commitTaskTurn, commitTurn } from "./commit-turn.js";
import { consumeOutcome } from "./outcomes.js";
import type { InstanceTurn } from "./run-instance-turn.js";

/** Who took the turn, and in which state: fixed before anything of it is applied. */
interface TurnFacts {
  key: string;
  task: string | null;
  isLead: boolean;
  stateLabel: State;
}

/** How the Run ended on the bus: the events to append and the effects to run after. */
interface RunEnding {
  rule: SoupTurnResult["rule"];
  events: BusEvent[];
  effects: Effect[];
}

/** A lead's outcome record, read from its workspace: applied, refused, or none. */
interface OutcomeApplied {
  applied: TransitionApplied | null;
  violation: string | null;
  label: string;
}

export async function applyTurn(s: Session, t: InstanceTurn): Promise<void> {
  const turn = turnFacts(s, t.a);
  // Nothing this turn wrote under .github/workflows/ is committed unless allowed: pushing it
  // needs a permission the token may not hold, and every later push would fail.
  const heldBack = await holdBackWorkflowChanges(s, t.ws.root);
  if (t.error !== null || t.run === null) {
    await applyUnstartedTurn(s, t, turn);
    await tellHeldBack(s, t.a, heldBack);
    await commitTurn(s, t, `cfa #${s.n}: ${turn.stateLabel} ${turn.key} turn failed`, turn.isLead);
    return;
  }
  const run = t.run;
  const ending = endRun(s, t, run, turn.key);
  const outcome = turn.isLead ? await applyOutcome(s, t, ending.events) : NO_OUTCOME;
  await append(s, ending.events);
  // The turn's transcript reaches the job worktree now, with its apply: the commit below
  // holds this turn and no other instance's (a crash never commits a turn that did not land).
  await run.record();
  // The commands the worker's turn ran, as the engine saw them, for the task table.
  if (
    turn.task !== null &&
    s.engine.tasks[turn.task] !== undefined &&
    run.decisions.commands.length > 0
  ) {
    applyChange(s, { type: "task-worked", id: turn.task, evidence: run.decisions.commands });
  }
  // How much of a task's turn its commands took, for `execute.runners: auto`,
  // as it would have alone on the runner (what commands run at the same time added, apart).
  if (turn.task !== null && s.engine.tasks[turn.task] !== undefined) {
    applyChange(s, {
      type: "task-turn-timed",
      id: turn.task,
      turnMs: run.wallMs - run.decisions.contendedMs,
      commandMs: run.decisions.commandMs,
      contendedMs: run.decisions.contendedMs,
    });
  }
  await commitTaskTurn(
    s,
    turn.task,
    `cfa #${s.n}: ${turn.stateLabel} ${turn.key} turn ${run.turn}`,
  );
  progress(
    s,
    turn.key,
    "TURN",
    `turn ${run.turn}${outcome.label} (${run.result.toolCalls} tool call${run.result.toolCalls === 1 ? "" : "s"}${replayNote(run)})`,
    turn.task !== null,
  );
  await judgeTurn(s, t.a, run, turn, outcome.violation, ending.rule);
  await tellHeldBack(s, t.a, heldBack);
  await commitTurn(
    s,
    t,
    `cfa #${s.n}: ${turn.stateLabel} ${turn.key} turn ${run.turn}${outcome.label}`,
    turn.isLead,
  );
  await handleEffects(s, ending.effects);
  if (outcome.applied !== null) {
    const missed = pendingInterventions(s, t.a.thread);
    await afterTransition(s, outcome.applied);
    await carryInterventions(s, missed);
  }
}

function turnFacts(s: JobRecords, a: Address): TurnFacts {
  const key = addressKey(a);
  const lead = currentLead(s);
  return {
    key,
    task: taskOfThread(a.thread),
    isLead: lead !== null && addressKey(lead) === key,
    stateLabel: s.job.state,
  };
}

/**
 * Recovery (docs/protocol.md#persistence): a Run that exits with an error surfaces as a Send into
 * the failing instance's mailbox. This turn never started (nothing of it is recorded), so the
 * message it was given is quoted in the recovery message.
 */
async function applyUnstartedTurn(s: Session, t: InstanceTurn, turn: TurnFacts): Promise<void> {
  const ended = s.soup.endTurn(t.a, { rule: "nosend-step" });
  await append(s, [...t.woke.events, ...preemptEvents(t), ...ended.events]);
  const reason = (t.error?.message ?? "unknown error").slice(0, 500);
  progress(s, turn.key, "ERROR", reason);
  await failState(
    s,
    `${turn.key}: ${reason}`,
    t.a,
    `Your last turn failed before it began (${reason}). The message it was given:\n\n${t.woke.message.text}`,
  );
}

/**
 * How the Run ends on the bus: [ask-step] with a question (its id allocated now, in the
 * order turns are applied), [send-step] with what it sent, or [nosend-step]. A turn that both sent and
 * asked is two reductions in one batch; a new gate supersedes the caller's earlier ones.
 */
function endRun(s: Session, t: InstanceTurn, run: AgentRun, key: string): RunEnding {
  const { decisions } = run;
  const turnResult = turnResultOf(s, run, key);
  const sentToo = turnResult.rule === "ask-step" && decisions.pending.length > 0;
  let ended = s.soup.endTurn(
    t.a,
    sentToo ? { rule: "send-step", payloads: decisions.pending } : turnResult,
  );
  const events = [...t.woke.events, ...preemptEvents(t), ...ended.events];
  if (sentToo && turnResult.rule === "ask-step") {
    // A turn that both sent and asked: its Send goes out first ([send-step]), then the same
    // instance poses its question ([ask-step]) — two reductions, one batch.
    const placed = s.soup.interrupt(t.a.thread, { kind: "observe", text: `ask ${turnResult.id}` });
    const woke = s.soup.wake(t.a);
    const asked = s.soup.endTurn(t.a, turnResult);
    events.push(...placed.events, ...woke.events, ...asked.events);
    ended = {
      events: [...ended.events, ...asked.events],
      effects: [...ended.effects, ...asked.effects],
    };
  }
  if (turnResult.rule === "ask-step" && turnResult.question.kind === "gate") {
    events.push(...supersedeGates(s, key, turnResult.id));
  }
  return { rule: turnResult.rule, events, effects: ended.effects };
}

/** The turn's result for the soup; a question gets its escalation id and record now. */
function turnResultOf(s: Session, run: AgentRun, key: string): SoupTurnResult {
  const { decisions, result } = run;
  if (!decisions.ask) {
    return decisions.pending.length > 0
      ? { rule: "send-step", payloads: decisions.pending }
      : { rule: "nosend-step" };
  }
  const state = isLiveState(s.job.state) ? s.job.state : "EXECUTE";
  const q = decisions.ask.question;
  const id = nextEscalationId(s.engine);
  const toolUseId = pendingAsk(result.messages)?.id;
  applyChange(s, {
    type: "escalation-opened",
    meta: {
      caller: key,
      kind: q.kind,
      state,
      text: q.text,
      ...(q.artifact ? { artifact: q.artifact } : {}),
      ...(toolUseId ? { toolUseId } : {}),
    },
  });
  progress(s, key, q.kind === "gate" ? "ASSERT" : "ASK", `${id}: ${oneLine(q.text, 200)}`);
  return {
    rule: "ask-step",
    id,
    question: {
      kind: q.kind,
      text: q.text,
      ...(q.artifact ? { data: { artifact: q.artifact } } : {}),
    },
    policy: escalationPolicy(s, state, q.kind),
  };
}

const NO_OUTCOME: OutcomeApplied = { applied: null, violation: null, label: "" };

/**
 * A lead's outcome record (docs/protocol.md#skill-contract): refused (a violation, judged below) or
 * applied — the turn's events and the outcome are appended first, then the transition it asks for.
 * `events` is emptied once appended.
 */
async function applyOutcome(
  s: Session,
  t: InstanceTurn,
  events: BusEvent[],
): Promise<OutcomeApplied> {
  const reading = await consumeOutcome(s, t.a, t.ws);
  if (reading.kind === "violation") return { ...NO_OUTCOME, violation: reading.violation };
  if (reading.kind !== "outcome") return NO_OUTCOME;
  events.push({ type: "outcome", by: t.a, record: reading.record });
  await append(s, events);
  events.length = 0;
  const applied = await applyTransition(
    s,
    reading.record.outcome,
    addressKey(t.a),
    reading.record.reason,
  );
  return { applied, violation: null, label: `: ${reading.record.outcome}` };
}

/**
 * What the turn counts for (termination, docs/protocol.md#invariants): a refused outcome or a
 * broken turn is a state-level failure the instance hears about; a clean one resets the
 * consecutive-failure count.
 */
async function judgeTurn(
  s: Session,
  a: Address,
  run: AgentRun,
  turn: TurnFacts,
  violation: string | null,
  rule: SoupTurnResult["rule"],
): Promise<void> {
  if (violation !== null) {
    progress(s, turn.key, "VIOLATION", violation);
    await failState(
      s,
      `${turn.key}: ${violation}`,
      a,
      `Your outcome record was refused: ${violation}. Fix what it says, then finish again.`,
    );
  } else if (run.failure !== null) {
    // The turn broke (a call refused, a tool threw, its deadline passed): what it did is
    // kept — its transcript, its files, its calls — and it hears why in its mailbox.
    progress(s, turn.key, "ERROR", run.failure);
    await failState(
      s,
      `${turn.key}: ${run.failure}`,
      a,
      `Your last turn was cut short: ${run.failure}. What it did so far is kept; continue from there.`,
    );
  } else {
    // The turn applied cleanly: a successful turn restarts the consecutive-failure count
    // (failure.ts), and a lead that asked or sent something made progress (PENDING nudges).
    s.job = recordSuccessfulTurn(s.job);
    if (turn.isLead && rule !== "nosend-step") s.job = recordLeadProgress(s.job);
  }
}

function preemptEvents(t: InstanceTurn): BusEvent[] {
  return t.preempted.flatMap((step) => step.events);
}

function replayNote(run: AgentRun): string {
  return run.replayed > 0 ? `, ${run.replayed} model calls replayed from the journal` : "";
}

/**
 * A lead that asks for review again (it revised after an intervention or a task's reply,
 * say) supersedes its earlier gate: that one asked about an artifact that is gone, and a
 * person's review can answer only one gate. Terminate on the old escalation's thread retracts
 * it ([term-proxy]), in the same batch as the new ask.
 */
function supersedeGates(
  s: JobRecords & Reporter & Conversation,
  caller: string,
  current: string,
): BusEvent[] {
  const events: BusEvent[] = [];
  for (const m of s.soup.pendingEscalations()) {
    const meta = s.engine.escalations[m.id];
    if (m.id === current || meta?.kind !== "gate" || meta.caller !== caller) continue;
    events.push(...s.soup.terminate(threads.escalation(m.id), "drop").events);
    applyChange(s, { type: "escalation-noted", id: m.id, patch: { verdict: "superseded" } });
    progress(s, caller, "SUPERSEDED", `gate ${m.id} by ${current}`);
  }
  return events;
}

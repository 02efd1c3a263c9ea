// A round of turns: every runnable instance (seed 000 §5 [wake]) runs its turn in parallel,
// then the turns are applied one by one in a fixed order — [send-step] / [nosend-step] /
// [ask-step], the outcome record, the transcript, one commit per turn — so the log is the
// same whatever order the model calls came back in.

import { addressKey, threads, type Address } from "../../protocol/address.js";
import type {
  BusEvent,
  Content,
  WakeResult,
  TurnResult as SoupTurnResult,
} from "../../protocol/bus/index.js";
import { isLiveState } from "../../protocol/fsm.js";
import {
  recordLeadProgress,
  recordStateFailure,
  recordSuccessfulTurn,
} from "../../protocol/failure.js";
import { pendingAsk } from "../../agents/loop/index.js";
import type { IncomingMessage } from "../../agents/turn-contract.js";
import { loadTranscript } from "../../agents/transcript/index.js";
import type { Workspace } from "../../ports/workspaces.js";
import { PHASES } from "../../skills/phases.js";
import { runAgent, type AgentRun } from "./agent-run.js";
import { endTurn as endRunning, startTurn } from "../job/wake-runtime.js";
import { carryInterventions, pendingInterventions } from "../flow/intervene.js";
import { readText, removeFile } from "../tree/files.js";
import { emptyDecisions } from "./host.js";
import { OUTCOME_PATH } from "../../records/job-paths.js";
import { currentLead, roleOf, taskOfThread } from "../flow/instances.js";
import { consumeOutcome } from "./outcomes.js";
import { recover } from "../flow/orchestrator.js";
import { systemPrompt } from "./prompts.js";
import { append, now, persist, progress, type Session } from "../job/session.js";
import { commitTask, workspaceOf } from "../tasks/task-workspace.js";
import { verifyTask } from "../tasks/verify-task.js";
import { holdBackWorkflowChanges, tellHeldBack } from "../tree/workflow-files.js";
import {
  afterTransition,
  applyTransition,
  handleEffects,
  type TransitionApplied,
} from "../flow/transitions.js";

export interface InstanceTurn {
  a: Address;
  woke: WakeResult;
  /** [interrupt] reductions fired at the turn's call boundaries (seed 000 §8). */
  preempted: WakeResult[];
  ws: Workspace;
  run: AgentRun | null;
  error: Error | null;
}

/** Starts the instance's Run (seed 000 [wake] / [wake-int]) and runs its turn. */
export async function runInstanceTurn(
  s: Session,
  a: Address,
  signal?: AbortSignal,
): Promise<InstanceTurn> {
  const woke = s.soup.wake(a);
  // Registered before the first await, so the turns of a round hold tickets in its order.
  const ticket = startTurn(s, addressKey(a));
  const preempted: WakeResult[] = [];
  let ws: Workspace = s.jobWs;
  const role = roleOf(a);
  const lead = currentLead(s);
  const isLead = lead !== null && addressKey(lead) === addressKey(a);
  const protect = [".cfa/"];
  if (isLead && isLiveState(s.job.state))
    protect.push(`!${s.paths.artifact(PHASES[s.job.state].artifact)}`);
  try {
    ws = await workspaceOf(s, a);
    const incoming = await renderIncoming(s, a, woke.message);
    const run = await runAgent(s, {
      address: a,
      role,
      ws,
      readOnly: false,
      protect,
      system: systemPrompt(s, a, role),
      incoming,
      recordNow: false,
      ticket,
      verify: (task, signal) => verifyTask(s, task, signal),
      ...(isLead ? { interrupt: () => preemptingMessage(s, a, preempted) } : {}),
      ...(signal ? { signal } : {}),
    });
    if (run.decisions.tampered.length > 0) {
      // Issue 8 §2: a turn whose command changed the job's own records fails. Its transcript
      // is kept (the agent did run those commands), but nothing it decided is applied, not
      // even an outcome it recorded.
      await removeFile(ws.root, OUTCOME_PATH);
      const records = run.decisions.tampered.join(", ");
      run.decisions = { ...emptyDecisions(), tampered: run.decisions.tampered };
      run.failure = `a command changed the engine's records (${records}); they were put back, and nothing this turn decided (a question, a gate, a dispatch, an outcome) was applied: ask or finish again. Never write under .cfa/ with a command`;
    }
    return { a, woke, preempted, ws, run, error: null };
  } catch (error) {
    endRunning(s, ticket);
    return { a, woke, preempted, ws, run: null, error: error as Error };
  }
}

/**
 * Seed 000 §8 [interrupt], at a lead's call boundary: an Interrupt on its thread (an
 * intervention relayed by the orchestrator) replaces what the Run is on; the loop adds it to
 * the conversation, so the Run resumes on it with its context.
 */
async function preemptingMessage(
  s: Session,
  a: Address,
  preempted: WakeResult[],
): Promise<IncomingMessage | null> {
  if (s.soup.stateOf(a) !== "Run" || !hasInterrupt(s, a)) return null;
  const step = s.soup.preempt(a);
  preempted.push(step);
  progress(s, addressKey(a), "INTERRUPT", "an intervention preempts the turn in flight");
  return renderIncoming(s, a, step.message);
}

function hasInterrupt(s: Session, a: Address): boolean {
  const key = addressKey(a);
  return s.soup.enabled().some((r) => {
    const run = r.molecules[0];
    return r.rule === "interrupt" && run?.kind === "Run" && addressKey(run.a) === key;
  });
}

async function renderIncoming(s: Session, a: Address, m: Content): Promise<IncomingMessage> {
  const from = m.from ? ` from ${addressKey(m.from)}` : "";
  switch (m.kind) {
    case "answer": {
      const id = typeof m.data?.id === "string" ? m.data.id : null;
      const meta = id ? s.engine.escalations[id] : undefined;
      // The answer resolves the pending ask_question only if that call is still open.
      const transcript = loadTranscript((await readText(s.jobWs.root, s.paths.instance(a))) ?? "");
      const open = pendingAsk(transcript.messages)?.id;
      const answers = meta?.toolUseId && open === meta.toolUseId ? meta.toolUseId : undefined;
      return {
        kind: "answer",
        text: answers ? m.text : `Answer to your question ${id ?? ""}:\n${m.text}`,
        ...(answers ? { answers } : {}),
      };
    }
    case "reply":
      return { kind: "reply", text: `Message${from}:\n${m.text}` };
    case "task":
      return { kind: "task", text: `Your task${from} (job #${s.n}):\n\n${m.text}` };
    case "verdict":
      return { kind: "verdict", text: m.text };
    case "intervention":
      return { kind: "intervention", text: `The person intervened:\n${m.text}` };
    default:
      return { kind: m.kind, text: m.text };
  }
}

export async function applyTurn(s: Session, t: InstanceTurn): Promise<void> {
  const key = addressKey(t.a);
  const task = taskOfThread(t.a.thread);
  const lead = currentLead(s);
  const isLead = lead !== null && addressKey(lead) === key;
  const stateLabel = s.job.state;
  // Nothing this turn wrote under .github/workflows/ is committed unless allowed (issue 10 §6).
  const heldBack = await holdBackWorkflowChanges(s, t.ws.root);

  if (t.error !== null || t.run === null) {
    // Seed 000 §11 "Recovery": a Run that exits with an error surfaces as a Send into the
    // failing instance's mailbox. This turn never started (nothing of it is recorded), so
    // the message it was given is quoted in the recovery message.
    const ended = s.soup.endTurn(t.a, { rule: "nosend-step" });
    await append(s, [...t.woke.events, ...preemptEvents(t), ...ended.events]);
    const reason = (t.error?.message ?? "unknown error").slice(0, 500);
    progress(s, key, "ERROR", reason);
    await failState(
      s,
      `${key}: ${reason}`,
      t.a,
      `Your last turn failed before it began (${reason}). The message it was given:\n\n${t.woke.message.text}`,
    );
    await tellHeldBack(s, t.a, heldBack);
    await persist(s, `cfa #${s.n}: ${stateLabel} ${key} turn failed`, turnPaths(s, t, isLead));
    return;
  }

  const { decisions, result } = t.run;
  let turnResult: SoupTurnResult;
  if (decisions.ask) {
    const state = isLiveState(s.job.state) ? s.job.state : "EXECUTE";
    const q = decisions.ask.question;
    const id = `q${s.engine.nextEscalation}`;
    s.engine = { ...s.engine, nextEscalation: s.engine.nextEscalation + 1 };
    const toolUseId = pendingAsk(result.messages)?.id;
    s.engine = {
      ...s.engine,
      escalations: {
        ...s.engine.escalations,
        [id]: {
          caller: key,
          kind: q.kind,
          state,
          text: q.text,
          ...(q.artifact ? { artifact: q.artifact } : {}),
          ...(toolUseId ? { toolUseId } : {}),
        },
      },
    };
    turnResult = {
      rule: "ask-step",
      id,
      question: {
        kind: q.kind,
        text: q.text,
        ...(q.artifact ? { data: { artifact: q.artifact } } : {}),
      },
      policy: s.config.escalation[state],
    };
    progress(
      s,
      key,
      q.kind === "gate" ? "ASSERT" : "ASK",
      `${id}: ${q.text.replace(/\s+/g, " ").slice(0, 120)}`,
    );
  } else if (decisions.pending.length > 0) {
    turnResult = { rule: "send-step", payloads: decisions.pending };
  } else {
    turnResult = { rule: "nosend-step" };
  }
  let ended = s.soup.endTurn(
    t.a,
    turnResult.rule === "ask-step" && decisions.pending.length > 0
      ? { rule: "send-step", payloads: decisions.pending }
      : turnResult,
  );
  const events = [...t.woke.events, ...preemptEvents(t), ...ended.events];
  if (turnResult.rule === "ask-step" && decisions.pending.length > 0) {
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

  let applied: TransitionApplied | null = null;
  let violation: string | null = null;
  let outcomeLabel = "";
  if (isLead) {
    const reading = await consumeOutcome(s, t.a, t.ws);
    if (reading.kind === "violation") {
      violation = reading.violation;
    } else if (reading.kind === "outcome") {
      events.push({ type: "outcome", by: t.a, record: reading.record });
      outcomeLabel = `: ${reading.record.outcome}`;
      await append(s, events);
      events.length = 0;
      applied = await applyTransition(s, reading.record.outcome, key, reading.record.reason);
    }
  }
  await append(s, events);
  // The turn's transcript reaches the job worktree now, with its apply: the commit below
  // holds this turn and no other instance's (issue 8 point 4).
  await t.run.record();
  if (task !== null && s.engine.tasks[task]?.status === "open") {
    await commitTask(s, task, `cfa #${s.n}: ${stateLabel} ${key} turn ${t.run.turn}`);
  }
  progress(
    s,
    key,
    "TURN",
    `turn ${t.run.turn}${outcomeLabel} (${result.toolCalls} tool calls${replayNote(t.run)})`,
    task !== null,
  );
  if (violation !== null) {
    progress(s, key, "VIOLATION", violation);
    await failState(
      s,
      `${key}: ${violation}`,
      t.a,
      `Your outcome record was refused: ${violation}. Fix what it says, then finish again.`,
    );
  } else if (t.run.failure !== null) {
    // The turn broke (a call refused, a tool threw, its deadline passed): what it did is
    // kept — its transcript, its files, its calls — and it hears why in its mailbox.
    progress(s, key, "ERROR", t.run.failure);
    await failState(
      s,
      `${key}: ${t.run.failure}`,
      t.a,
      `Your last turn was cut short: ${t.run.failure}. What it did so far is kept; continue from there.`,
    );
  } else {
    // The turn applied cleanly: a successful turn restarts the consecutive-failure count
    // (failure.ts), and a lead that asked or sent something made progress (PENDING nudges).
    s.job = recordSuccessfulTurn(s.job);
    if (isLead && turnResult.rule !== "nosend-step") s.job = recordLeadProgress(s.job);
  }
  await tellHeldBack(s, t.a, heldBack);
  await persist(
    s,
    `cfa #${s.n}: ${stateLabel} ${key} turn ${t.run.turn}${outcomeLabel}`,
    turnPaths(s, t, isLead),
  );
  await handleEffects(s, ended.effects);
  if (applied !== null) {
    const missed = pendingInterventions(s, t.a.thread);
    await afterTransition(s, applied);
    await carryInterventions(s, missed);
  }
}

function preemptEvents(t: InstanceTurn): BusEvent[] {
  return t.preempted.flatMap((step) => step.events);
}

function replayNote(run: AgentRun): string {
  return run.replayed > 0 ? `, ${run.replayed} model calls replayed from the journal` : "";
}

/**
 * What a turn's commit on the job branch holds (issue 8 point 4): the lead works in the job
 * worktree, so everything there (its files, its records); any other instance only the
 * records — the log, the job record and its own transcript. Its files are on its branch.
 */
function turnPaths(s: Session, t: InstanceTurn, isLead: boolean): string[] | undefined {
  if (isLead && t.ws.root === s.jobWs.root) return undefined;
  return [s.paths.bus, s.paths.state, s.paths.instance(t.a)];
}

/**
 * A lead that asks for review again (it revised after an intervention or a task's reply,
 * say) supersedes its earlier gate: that one asked about an artifact that is gone, and a
 * person's review can answer only one gate. Terminate on the old escalation's thread retracts
 * it ([term-proxy]), in the same batch as the new ask.
 */
function supersedeGates(s: Session, caller: string, current: string): BusEvent[] {
  const events: BusEvent[] = [];
  for (const m of s.soup.pendingEscalations()) {
    const meta = s.engine.escalations[m.id];
    if (m.id === current || meta?.kind !== "gate" || meta.caller !== caller) continue;
    events.push(...s.soup.terminate(threads.escalation(m.id), "drop").events);
    s.engine = {
      ...s.engine,
      escalations: { ...s.engine.escalations, [m.id]: { ...meta, verdict: "superseded" } },
    };
    progress(s, caller, "SUPERSEDED", `gate ${m.id} by ${current}`);
  }
  return events;
}

/**
 * A state-level failure: spend the retry budget and tell the instance, or fail the job.
 * `to` null: nobody to tell (a proxy run failed; the escalation stays pending and is
 * retried).
 */
export async function failState(
  s: Session,
  reason: string,
  to: Address | null,
  message: string,
): Promise<void> {
  if (!isLiveState(s.job.state)) return;
  const before = s.job;
  const counted = recordStateFailure(
    s.job,
    { at: now(s), by: "orchestrator", reason },
    s.config.retryBudget,
  );
  if (counted.exhausted) {
    s.job = before;
    const applied = await applyTransition(
      s,
      "FAILURE",
      "orchestrator",
      counted.job.history.at(-1)!.reason,
    );
    await persist(s, `cfa #${s.n}: ${applied.from} → FAILURE`);
    await afterTransition(s, applied);
    return;
  }
  s.job = counted.job;
  if (to === null) return;
  await recover(
    s,
    to,
    `${message}\n(State-level failure ${s.job.failures} of ${s.config.retryBudget} allowed.)`,
  );
}

// Running a turn of a round: every runnable instance ([wake]) runs its turn in parallel; nothing of
// it reaches the bus or the branch until it is applied (apply-turn.ts), one by one in the round's
// fixed order.

import { addressKey, type Address } from "../../protocol/address.js";
import type { Content, WakeResult } from "../../protocol/bus/index.js";
import { isLiveState } from "../../protocol/fsm.js";
import { pendingAsk } from "../../agents/loop/index.js";
import type { IncomingMessage } from "../../agents/turn-contract.js";
import { loadTranscript } from "../../agents/transcript/index.js";
import type { Workspace } from "../../ports/workspaces.js";
import { PHASES } from "../../skills/phases.js";
import { OUTCOME_PATH } from "../../records/job-paths.js";
import { endTurn as endRunning, startTurn } from "../turn/wake-runtime.js";
import { progress, type Conversation, type Session } from "../job/session.js";
import { currentLead, roleOf } from "../job/instances.js";
import { workspaceOf } from "../turn/task-workspace.js";
import { verifyTask } from "../tasks/verify-task.js";
import { readText, removeFile } from "../tree/files.js";
import { runAgent, type AgentRun } from "../turn/agent-run.js";
import { emptyDecisions } from "../turn/host.js";
import { systemPrompt } from "../turn/prompts.js";
import * as z from "zod";
import { CommandEvidenceSchema, evidenceOutcome } from "../../records/command-evidence.js";

export interface InstanceTurn {
  a: Address;
  woke: WakeResult;
  /** [interrupt] reductions fired at the turn's call boundaries (docs/protocol.md#intervention). */
  preempted: WakeResult[];
  ws: Workspace;
  run: AgentRun | null;
  error: Error | null;
}

/** Starts the instance's Run ([wake] / [wake-int]) and runs its turn. */
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
  const key = addressKey(a);
  try {
    ws = await workspaceOf(s, a);
    if (ws.root === s.jobWs.root) s.jobTreeTurns.add(key);
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
      verify: (task, signal) => verifyTask(s, task, signal, { afterAppliedTurns: true }),
      ...(isLead ? { interrupt: () => preemptingMessage(s, a, preempted) } : {}),
      ...(signal ? { signal } : {}),
    });
    if (run.decisions.tampered.length > 0) {
      // A turn whose command changed the job's own records (the engine's alone) fails. Its
      // transcript is kept (the agent did run those commands), but nothing it decided is applied,
      // not even an outcome it recorded.
      await removeFile(ws.root, OUTCOME_PATH);
      const records = run.decisions.tampered.join(", ");
      run.decisions = {
        ...emptyDecisions(),
        tampered: run.decisions.tampered,
        // The time its commands took was spent all the same (runner-measures.ts).
        commandMs: run.decisions.commandMs,
        contendedMs: run.decisions.contendedMs,
      };
      run.failure = `a command changed the engine's records (${records}); they were put back, and nothing this turn decided (a question, a gate, a dispatch, an outcome) was applied: ask or finish again. Never write under .cfa/ with a command`;
    }
    return { a, woke, preempted, ws, run, error: null };
  } catch (error) {
    endRunning(s, ticket);
    return { a, woke, preempted, ws, run: null, error: error as Error };
  } finally {
    s.jobTreeTurns.delete(key);
  }
}

/**
 * [interrupt] (docs/protocol.md#intervention), at a lead's call boundary: an Interrupt on its
 * thread (an intervention relayed by the orchestrator) replaces what the Run is on; the loop adds
 * it to the conversation, so the Run resumes on it with its context.
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

function hasInterrupt(s: Conversation, a: Address): boolean {
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
      return { kind: "reply", text: `Message${from}:\n${m.text}${evidenceNote(m.data)}` };
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

/**
 * What the sender's turn ran, as the engine recorded it (a worker's reply carries it), so a lead
 * weighs the reply against evidence rather than the model's words alone.
 */
function evidenceNote(data: Record<string, unknown> | undefined): string {
  const parsed = z.array(CommandEvidenceSchema).safeParse(data?.evidence);
  if (!parsed.success) return "";
  if (parsed.data.length === 0) return "\n\n(cfa: the sender ran no command in this turn.)";
  const lines = parsed.data.map((e) => `- ${e.command}: ${evidenceOutcome(e)}`);
  return `\n\n(cfa: commands the sender ran in this turn, as the engine recorded them:\n${lines.join("\n")})`;
}

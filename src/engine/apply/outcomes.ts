// The outcome record (docs/protocol.md#skill-contract): the lead's skill writes it at
// `.cfa/outcome.json`; the engine consumes it after the turn (it is never committed), validates it,
// and either transitions or counts a state-level failure. An approval also needs an approved gate
// for the artifact as it now stands: control at every gate.

import { isLiveState, type Action } from "../../protocol/fsm.js";
import { parseOutcomeRecord, type OutcomeRecord } from "../../protocol/outcome-record.js";
import type { Address } from "../../protocol/address.js";
import { addressKey } from "../../protocol/address.js";
import type { Workspace } from "../../ports/workspaces.js";
import { PHASES } from "../../skills/phases.js";
import { readText, removeFile } from "../tree/files.js";
import { OUTCOME_PATH } from "../../records/job-paths.js";
import { readRegular } from "../tree/settle-records.js";
import type { Session } from "../job/session.js";

export type OutcomeReading =
  | { kind: "none" }
  | { kind: "violation"; violation: string }
  | { kind: "outcome"; record: OutcomeRecord & { outcome: Action } };

export async function consumeOutcome(
  s: Session,
  lead: Address,
  ws: Workspace,
): Promise<OutcomeReading> {
  let text: string | null;
  try {
    text = await readText(ws.root, OUTCOME_PATH);
  } catch (error) {
    // Only the finish tool writes the outcome record; one a command wrote (or
    // linked elsewhere) is not the skill's outcome.
    await removeFile(ws.root, OUTCOME_PATH);
    return {
      kind: "violation",
      violation: `the outcome record was refused: ${(error as Error).message}`,
    };
  }
  if (text === null) return { kind: "none" };
  await removeFile(ws.root, OUTCOME_PATH);
  const state = s.job.state;
  if (!isLiveState(state)) return { kind: "violation", violation: `the job is already ${state}` };
  const parsed = parseOutcomeRecord(text, state);
  if (!parsed.ok) return { kind: "violation", violation: parsed.violation };
  const record = parsed.record;
  if (record.outcome === PHASES[state].approval) {
    const problem = await approvalProblem(s, lead, ws);
    if (problem) return { kind: "violation", violation: problem };
  }
  return { kind: "outcome", record };
}

/** Null when the artifact as it is on disk now was approved at a gate of this state entry. */
async function approvalProblem(s: Session, lead: Address, ws: Workspace): Promise<string | null> {
  const state = s.job.state;
  if (!isLiveState(state)) return `the job is ${state}`;
  const artifact = s.paths.artifact(PHASES[state].artifact);
  const caller = addressKey(lead);
  const approved = Object.values(s.engine.escalations).filter(
    (e) => e.kind === "gate" && e.caller === caller && e.verdict === "approved" && e.gateBlob,
  );
  if (approved.length === 0) {
    return `${PHASES[state].approval} needs an approved gate: ask for review with ask_question (kind gate) first`;
  }
  const current = await workingBlob(s, ws, artifact);
  if (!approved.some((e) => e.gateBlob === current)) {
    return `${PHASES[state].artifact} changed after it was approved: ask for review again`;
  }
  return null;
}

/**
 * The blob id the artifact on disk would be committed as: its raw bytes (records and
 * artifacts are committed unfiltered, job-repo.ts), read through the boundary — a link or
 * a hard link is no artifact (it could show the person a file from outside the workspace).
 */
async function workingBlob(s: Session, ws: Workspace, path: string): Promise<string | null> {
  const bytes = await readRegular(ws.root, path);
  return bytes === null ? null : s.repo.records.oidOf(bytes);
}

// System prompts: the role's prompt, the phase skill for a lead, and the job's stable facts.
// Stable across an instance's turns, so every turn resumes a cached prefix
// (docs/protocol.md#persistence); anything that changes (the request, answers, interventions)
// travels in messages.

import type { Address } from "../../protocol/address.js";
import { isLiveState, LIVE_STATES, type LiveState } from "../../protocol/fsm.js";
import type { RoleName } from "../../agents/roles/index.js";
import { skillPrompt } from "../../skills/skill-prompt.js";
import { PHASES } from "../../skills/phases.js";
import { roleFor } from "./role-for.js";
import { workspaceNote } from "../../agents/roles/workspace-note.js";
import type { JobRecords } from "../job/session.js";

export function stateOfThread(thread: string): LiveState | null {
  const match = /^state:([a-z]+):\d+$/.exec(thread);
  const state = match?.[1]?.toUpperCase();
  return isLiveState(state) ? state : null;
}

/**
 * The system prompt in two parts: what every instance of the role shares in this job (the
 * role's prompt, its workspace note, the job's facts) and what is the instance's own (a lead's
 * phase skill), each cached on its own so a lead's PLAN and EXECUTE share the first.
 */
export interface SystemPrompt {
  role: string;
  instance: string;
}

export function systemPrompt(s: JobRecords, a: Address, role: RoleName): SystemPrompt {
  const defined = roleFor(s, role);
  const parts = [defined.prompt.trim()];
  const workspace = workspaceNote(defined);
  if (workspace !== "") parts.push(workspace.trim());
  parts.push(
    [
      "# The job",
      `This is job #${s.n} of cfa-bot, on branch \`${s.paths.branch}\`.`,
      `Its records and artifacts live under \`${s.paths.dir}/\` (INTENT.md, PLAN.md, WORK_SUMMARY.md); you may read \`.cfa/\` but only the current phase's artifact may be written there, and only by its lead.`,
      "Paths in tools are relative to your workspace root.",
    ].join("\n"),
  );
  const state = stateOfThread(a.thread);
  const skill =
    state === null
      ? ""
      : skillPrompt(state, {
          artifactPath: s.paths.artifact(PHASES[state].artifact),
          fanOut: s.config.fanOut,
        }).trim() + "\n";
  // A role that leads one phase only (the intent lead) has the same skill in every instance:
  // it is the role's, and its instances share it whole.
  const phasesLed = LIVE_STATES.filter((live) => PHASES[live].lead === role).length;
  if (phasesLed <= 1 && skill !== "") parts.push(skill.trim());
  return {
    role: parts.join("\n\n") + "\n",
    instance: phasesLed <= 1 ? "" : skill,
  };
}

// System prompts: the role's prompt, the phase skill for a lead, and the job's stable facts.
// Stable across an instance's turns, so every turn resumes a cached prefix (seed 000 §11);
// anything that changes (the request, answers, interventions) travels in messages.

import type { Address } from "../../protocol/address.js";
import { isLiveState, type LiveState } from "../../protocol/fsm.js";
import type { RoleName } from "../../agents/roles/index.js";
import { skillPrompt } from "../../skills/skill-prompt.js";
import { PHASES } from "../../skills/phases.js";
import { roleFor } from "./role-for.js";
import type { JobRecords } from "../job/session.js";

export function stateOfThread(thread: string): LiveState | null {
  const match = /^state:([a-z]+):\d+$/.exec(thread);
  const state = match?.[1]?.toUpperCase();
  return isLiveState(state) ? state : null;
}

export function systemPrompt(s: JobRecords, a: Address, role: RoleName): string {
  const parts = [roleFor(s, role).prompt.trim()];
  const state = stateOfThread(a.thread);
  if (state !== null) {
    parts.push(
      skillPrompt(state, {
        artifactPath: s.paths.artifact(PHASES[state].artifact),
        fanOut: s.config.fanOut,
      }).trim(),
    );
  }
  parts.push(
    [
      "# The job",
      `This is job #${s.n} of cfa-bot, on branch \`${s.paths.branch}\`.`,
      `Its records and artifacts live under \`${s.paths.dir}/\` (INTENT.md, PLAN.md, WORK_SUMMARY.md); you may read \`.cfa/\` but only the current phase's artifact may be written there, and only by its lead.`,
      "Paths in tools are relative to your workspace root.",
    ].join("\n"),
  );
  return parts.join("\n\n") + "\n";
}

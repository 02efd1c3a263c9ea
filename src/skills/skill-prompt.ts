// A phase skill's instructions: the shape every skill shares (docs/protocol.md#skill-contract)
// followed by the phase's own, with the phase's facts filled in.

import { readFileSync } from "node:fs";
import { allowedOutcomes, type LiveState } from "../protocol/fsm.js";
import { phaseOf } from "./phases.js";
import { promptPath } from "./package-root.js";

export interface SkillFacts {
  /** The artifact's path relative to the lead's workspace root. */
  artifactPath: string;
  fanOut: number;
}

export function skillPrompt(state: LiveState, facts: SkillFacts): string {
  const phase = phaseOf(state);
  const values: Record<string, string> = {
    artifact: facts.artifactPath,
    outcomes: allowedOutcomes(state).join(", "),
    fanOut: String(facts.fanOut),
  };
  const fill = (text: string) =>
    text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
  const anatomy = readFileSync(promptPath("skills", "anatomy.md"), "utf8");
  const own = readFileSync(promptPath("skills", phase.skill), "utf8");
  return `${fill(anatomy).trim()}\n\n${fill(own).trim()}\n`;
}

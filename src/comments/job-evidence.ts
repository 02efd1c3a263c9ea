// The evidence part of a check run's summary: each task's verdict with the
// commands it rests on, the setup runs and the blocked requests. Pure.

import type { EngineState } from "../records/engine-state.js";
import { blockedSection, setupFailureText, setupSection, verifierCell } from "./evidence-text.js";
import { mcpProblemsSection } from "./mcp-problems-text.js";

export function jobEvidence(engine: EngineState): string {
  const lines: string[] = [];
  const tasks = Object.entries(engine.tasks).sort(([a], [b]) => a.localeCompare(b));
  if (tasks.length > 0) {
    lines.push("| task | status | verifier |", "|---|---|---|");
    for (const [id, task] of tasks) {
      lines.push(`| \`${id}\` | ${task.status} | ${verifierCell(task)} |`);
    }
  }
  lines.push(...setupFailureText(engine.setup?.failed));
  lines.push(...setupSection(engine), ...blockedSection(engine), ...mcpProblemsSection(engine));
  return lines.join("\n").trim();
}

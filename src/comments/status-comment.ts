// The one status comment per job, edited in place (docs/configuration.md: the status
// comment): the state, whose move it is, backtracks, tasks, turns, tokens, cost and links.
// Pure.

import type { JobRecord } from "../protocol/job-record.js";
import type { EngineState } from "../records/engine-state.js";
import { withHiddenBlock } from "./hidden-block.js";
import { pictureOfJob } from "./picture-of-job.js";
import { taskStatusWords } from "./task-status-words.js";
import { tokenFigure } from "./token-figure.js";
import { tasksThatMatter } from "./tasks-that-matter.js";
import { neutralizeMentions } from "./comment-text.js";
import { redact } from "../secrets/index.js";
import {
  blockedSection,
  setupFailureText,
  setupSection,
  verifierCell,
  workerCell,
} from "./evidence-text.js";
import { mcpProblemsSection } from "./mcp-problems-text.js";
import { roundsDiagram, roundsTable, type RoundFact } from "./job-rounds-text.js";

export interface StatusFacts {
  job: JobRecord;
  engine: EngineState;
  /** What the job waits on now, in a few words ("@ana to review INTENT.md", "agents working"). */
  waitingOn: string;
  links: { branch?: string; pr?: string; artifacts: { name: string; url: string }[] };
  /** Things a person should know that are not the next move (the PR could not be a draft…). */
  notices?: readonly string[];
  /** The job waits on a failed setup: its command and last lines are shown. */
  setupWaiting?: boolean;
  /**
   * The job and its follow-ups in order, this one last (docs/protocol.md#jobs-and-states):
   * absent for a job no follow-up began from.
   */
  rounds?: readonly RoundFact[];
  /**
   * Where the job lives, when not on GitHub: the commands a person types there (a local job's
   * `cfa` verbs), shown instead of the slash commands. The job's page passes them.
   */
  verbs?: { resume: string; line: string };
  /** False on the job's page: it shows the history itself, once. */
  history?: boolean;
  /** False on the job's page: no state icon (an emoji needs an emoji font to show). */
  icons?: boolean;
}

const STATE_ICON: Record<string, string> = {
  INTENT: "🧭",
  PLAN: "🗺️",
  EXECUTE: "🛠️",
  DONE: "✅",
  WITHDRAWN: "🛑",
  FAILURE: "❌",
};

export function renderStatusComment(facts: StatusFacts): string {
  const { job, engine } = facts;
  const round = engine.followUp?.round;
  const rounds = facts.rounds ?? [];
  const which = round === undefined ? "" : ` · follow-up ${round}`;
  const lines = [
    facts.icons === false
      ? `### cfa job #${job.job}${which}: **${job.state}**${engine.paused ? " · **PAUSED**" : ""}`
      : `### ${STATE_ICON[job.state] ?? ""} cfa job #${job.job}${which}: **${job.state}**${engine.paused ? " · ⏸️ **PAUSED**" : ""}`,
    "",
    // A follow-up's status comment is the job's, edited in place: every round, in order.
    ...(rounds.length > 1 ? [...roundsTable(rounds, round ?? 1), ""] : []),
    // Who paused it, since when and why (their words, one line, nobody pinged).
    ...(engine.paused
      ? [
          `> [!IMPORTANT]\n> **Paused** by ${oneLine(`@${engine.paused.by}`)} since ${engine.paused.since}: ${oneLine(engine.paused.reason)}. No agent runs until ${facts.verbs?.resume ?? "`/resume`"}.`,
          "",
        ]
      : []),
    `**Next move:** ${facts.waitingOn}`,
    "",
    ...(facts.notices ?? []).flatMap((notice) => [`> [!NOTE]\n> ${notice}`, ""]),
    ...(facts.setupWaiting ? setupFailureText(engine.setup?.failed) : []),
    `| backtracks | turns | tokens | cost |`,
    `|---|---|---|---|`,
    `| ${job.backtracks} | ${job.turns} | ${tokenFigure(job.usage)} | $${job.costUsd.toFixed(2)} |`,
  ];
  const tasks = Object.entries(engine.tasks).map(([id, meta]) => ({
    id,
    parent: meta.parent ?? null,
    status: meta.status,
    verdict: meta.lastVerdict,
    meta,
  }));
  if (tasks.length > 0) {
    // What each verdict rests on — the commands the engine saw run, not the
    // model's account of them; a pass with none is unverified. A big job lists the tasks that
    // matter and counts the rest (tasks-that-matter.ts).
    const { shown, rest } = tasksThatMatter(tasks);
    lines.push("", "| task | status | worker ran | verifier |", "|---|---|---|---|");
    for (const { id, meta: task } of shown) {
      lines.push(
        `| \`${id}\` | ${taskStatusWords(task.status)} | ${workerCell(task)} | ${verifierCell(task)} |`,
      );
    }
    if (rest !== null) lines.push("", `${rest.count} more tasks not listed: ${rest.words}.`);
  }
  lines.push(...setupSection(engine), ...blockedSection(engine), ...mcpProblemsSection(engine));
  // The state machine with this job's path, and the dispatch tree (Mermaid, rendered by GitHub).
  lines.push(
    "",
    "<details open><summary>Picture</summary>",
    "",
    ...(rounds.length > 1 ? [roundsDiagram(rounds), ""] : []),
    pictureOfJob(job, engine),
    "",
    "</details>",
  );
  // The history: transitions, and people's decisions at gates with their notes, in
  // time order (ISO times sort as text; a decision from older records has none).
  const history = [
    ...job.history.map((entry) => ({
      at: entry.at,
      line: `- ${entry.at} ${entry.from} → **${entry.to}** (${entry.action} by ${entry.by}): ${oneLine(entry.reason)}`,
    })),
    ...Object.entries(engine.escalations).flatMap(([id, meta]) =>
      meta.kind === "gate" &&
      (meta.verdict === "approved" || meta.verdict === "changes") &&
      meta.answeredBy !== undefined &&
      meta.answeredBy !== "proxy"
        ? [
            {
              at: meta.answeredAt ?? "",
              line: `- ${meta.answeredAt ?? ""} gate \`${id}\` ${meta.verdict === "approved" ? "**approved**" : "**changes requested**"} by ${oneLine(`@${meta.answeredBy}`)}${meta.note ? `: ${oneLine(meta.note)}` : ""}`,
            },
          ]
        : [],
    ),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  if (history.length > 0 && facts.history !== false) {
    lines.push("", "<details><summary>History</summary>", "");
    for (const entry of history) lines.push(entry.line.replace("-  gate", "- gate"));
    lines.push("", "</details>");
  }
  const links = [
    facts.links.pr ? `[pull request](${facts.links.pr})` : null,
    facts.links.branch ? `[branch](${facts.links.branch})` : null,
    ...facts.links.artifacts.map((a) => `[${a.name}](${a.url})`),
  ].filter((l): l is string => l !== null);
  if (links.length > 0) lines.push("", links.join(" · "));
  lines.push(
    "",
    `<sub>${facts.verbs?.line ?? "Commands (people with write access): `/withdraw [reason]` · `/intervene <text>` · `/answer [q<N>] <text>` · `/pause [reason]` · `/resume` · `/retry` (a failed setup) · `/cfa <request>` (more work, here or on the pull request: after the job is done, a follow-up; while it runs, an intervention). Gates are approved in a pull-request review; after DONE, a review that requests changes starts a follow-up."}</sub>`,
  );
  return withHiddenBlock(lines.join("\n"), { v: 1, job: job.job, kind: "status" });
}

/** Reasons come from agents: one line, and no @mention that would ping anyone. */
function oneLine(text: string): string {
  // Redacted before it is cut: half a secret is still a leak.
  const flat = neutralizeMentions(redact(text, "a comment").replace(/\s+/g, " ").trim());
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

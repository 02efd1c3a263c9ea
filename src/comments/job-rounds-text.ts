// A job and its follow-ups (docs/protocol.md#jobs-and-states), as the status comment, the
// job page and `cfa inspect` show them: each round in order, what was asked and how it
// ended. Pure: the facts come from each round's records.

import type { State } from "../protocol/fsm.js";
import type { FollowUpRequest } from "../records/follow-up-request.js";
import { mermaidBlock, mermaidLabel } from "./mermaid-text.js";
import { neutralizeMentions } from "./comment-text.js";

export interface RoundFact {
  /** 1: the job; k ≥ 2: its k-th round, a follow-up. */
  round: number;
  state: State;
  turns: number;
  costUsd: number;
  /** What started it: the follow-up's request, or null for the job itself (its issue). */
  request: FollowUpRequest | null;
  /** Who the job is for (round 1: whoever labelled the issue). */
  requester: string;
}

/** "review 123 by @ana", "/cfa on the pull request by @ana", "the issue, for @ana". */
export function askedBy(round: Pick<RoundFact, "request" | "requester">): string {
  const r = round.request;
  if (r === null) return `the issue, for @${round.requester}`;
  return r.kind === "review"
    ? `review ${r.id} requesting changes, by @${r.by}`
    : `\`/cfa\` on the ${r.on === "pull" ? "pull request" : "issue"}, by @${r.by}`;
}

export const roundName = (round: number) => (round <= 1 ? "the job" : `follow-up ${round}`);

/**
 * The rounds in order, one row each: what started it, its state, turns and cost. Text a
 * person wrote is not repeated here (the request is quoted where it is read: the follow-up's
 * records); only who asked, and how — named, never pinged at each edit of the comment.
 */
export function roundsTable(rounds: readonly RoundFact[], current: number): string[] {
  return [
    "| round | asked by | state | turns | cost |",
    "|---|---|---|---|---|",
    ...rounds.map(
      (r) =>
        `| ${r.round} — ${roundName(r.round)} | ${neutralizeMentions(askedBy(r))} | ${r.round === current ? `**${r.state}** (now)` : r.state} | ${r.turns} | $${r.costUsd.toFixed(2)} |`,
    ),
  ];
}

const ROUND_CLASSES: Partial<Record<State, string>> = {
  DONE: "classDef done fill:#bbf7d0,stroke:#15803d,color:#111",
  WITHDRAWN: "classDef withdrawn fill:#e5e7eb,stroke:#4b5563,color:#111",
  FAILURE: "classDef failed fill:#fecaca,stroke:#b91c1c,color:#111",
};
const CLASS_OF: Partial<Record<State, string>> = {
  DONE: "done",
  WITHDRAWN: "withdrawn",
  FAILURE: "failed",
};

/** The rounds as a chain, each arrow labelled with who asked for the next (Mermaid). */
export function roundsDiagram(rounds: readonly RoundFact[]): string {
  const lines = [
    "flowchart LR",
    "classDef current fill:#fde68a,stroke:#b45309,stroke-width:3px,color:#111",
    ...Object.values(ROUND_CLASSES),
  ];
  rounds.forEach((r, i) => {
    lines.push(`r${i}(["${mermaidLabel(`${roundName(r.round)}: ${r.state}`)}"])`);
    if (i > 0) {
      const by =
        r.request === null
          ? ""
          : `|"${mermaidLabel(`${r.request.kind === "review" ? "review" : "/cfa"} by @${r.request.by}`)}"|`;
      lines.push(`r${i - 1} ==>${by} r${i}`);
    }
    lines.push(`class r${i} ${CLASS_OF[r.state] ?? "current"}`);
  });
  return mermaidBlock(lines);
}

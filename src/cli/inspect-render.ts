// `cfa inspect`: the job as a tree (docs/protocol.md#run-visibility) — job → each entry into a
// state (its outcome and gates) → the tasks it dispatched (status, verifier verdict) →
// artifacts, with turns, tokens and cost per instance (summed from the transcripts'
// turn-end lines) and totals. Pure: the caller passes the price table.

import { isRole } from "../config/index.js";
import type { EscalationMeta, TaskMeta } from "../records/engine-state.js";
import { commandEnd, type CommandEvidence } from "../records/command-evidence.js";
import { isLiveState, type LiveState } from "../protocol/fsm.js";
import type { TransitionEntry } from "../protocol/job-record.js";
import type { ModelUsage } from "../ports/model.js";
import { PHASES } from "../skills/phases.js";
import { drawTree, type TreeNode } from "./draw-tree.js";
import { formatUsage, formatUsd } from "./format-usage.js";
import type { InstanceView, JobView } from "./job-view.js";
import { clockTime, oneLine } from "./live-log.js";
import { filesWritten, lastVerdict, verdictOf, verifiersOf } from "./instance-facts.js";
import { countOf } from "./count-of.js";
import { taskStatusWords } from "../comments/task-status-words.js";
import { jobPaths } from "../records/job-paths.js";
import { requestSummary } from "../records/follow-up-request.js";
import { blockedHost } from "../comments/evidence-text.js";

export interface InspectOptions {
  /** A role's configured tier or model id → the model id (the wiring's resolveModel). */
  resolveModel(tierOrModel: string): string;
  /** USD for one model's usage (the wiring's price table; 0 for unknown models). */
  price(model: string, usage: ModelUsage): number;
  timeZone?: string;
}

interface StateEntry {
  state: LiveState;
  entry: number;
  exit?: TransitionEntry;
}

interface Totals {
  instances: number;
  turns: number;
  toolCalls: number;
  usage: ModelUsage;
  cost: number;
}

export function renderInspect(view: JobView, options: InspectOptions): string[] {
  const job = view.job;
  if (job === null) return [`Job #${view.n}: no state record on ${view.ref} yet.`];
  const time = (iso: string) => clockTime(iso, options.timeZone);
  const instances = new Map(view.instances.map((i) => [i.key, i]));
  const placed = new Set<string>();
  const totals: Totals = {
    instances: 0,
    turns: 0,
    toolCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    cost: 0,
  };
  const escalations = Object.entries(view.engine?.escalations ?? {}).sort(([a], [b]) =>
    a.localeCompare(b, "en", { numeric: true }),
  );
  const tasks = view.engine?.tasks ?? {};
  const parentOf = new Map<string, string>();
  for (const line of view.lines)
    if (line.type === "spark" || line.type === "unblock") parentOf.set(line.to.thread, line.parent);
  // Tasks still waiting under the fan-out cap (docs/protocol.md#configuration) hang under
  // their parent too.
  for (const line of view.lines)
    if (line.type === "block" && !parentOf.has(line.to.thread))
      parentOf.set(line.to.thread, line.from.thread);
  /** The tasks dispatched from `thread`, in the order they were. */
  const tasksUnder = (thread: string) =>
    [...parentOf.entries()]
      .filter(([child, parent]) => parent === thread && child.startsWith("dispatch:"))
      .map(([child]) => child.slice("dispatch:".length));

  const instanceNode = (key: string, extra = ""): TreeNode | null => {
    const inst = instances.get(key);
    if (!inst) return null;
    placed.add(key);
    return { label: `${key}${extra} — ${instanceStats(inst, view, options, totals)}` };
  };

  const asksOf = (caller: string): TreeNode[] =>
    escalations
      .filter(([, meta]) => meta.caller === caller)
      .map(([id, meta]) => {
        const proxy = instanceNode(`proxy@escalation:${id}`);
        return { label: askLabel(id, meta), children: proxy ? [proxy] : [] };
      });

  const taskNode = (id: string, meta: TaskMeta | undefined, seen = new Set<string>()): TreeNode => {
    const worker = `worker@dispatch:${id}`;
    const verdict = lastVerdict(view.instances, id);
    const status = meta ? taskStatusWords(meta.status) : "unknown";
    const verifiers = verifiersOf(view.instances, id)
      .map((i) => instanceNode(i.key, ` (${verdictOf(i) ?? "no verdict"})`))
      .filter((x): x is TreeNode => x !== null);
    const files = filesWritten(instances.get(worker));
    const children: TreeNode[] = [
      ...(meta ? [{ label: `brief: ${oneLine(meta.brief, 140)}` }] : []),
      // What the verdict rests on, as the engine recorded it (not the verifier's words).
      ...(meta?.verifierEvidence !== undefined
        ? [
            {
              label:
                meta.verifierEvidence.length === 0
                  ? `evidence: none — the verifier ran no command${meta.lastVerdict === "pass" ? " (unverified pass)" : ""}`
                  : `evidence: ${meta.verifierEvidence.map(evidenceLine).join("; ")}`,
            },
          ]
        : []),
      { label: files.length > 0 ? `files: ${files.join(", ")}` : "files: none written" },
      ...asksOf(worker),
      ...[instanceNode(worker)].filter((x): x is TreeNode => x !== null),
      ...verifiers,
      // The sub-tasks it dispatched, each a tree of its own.
      ...tasksUnder(`dispatch:${id}`)
        .filter((sub) => !seen.has(sub))
        .map((sub) => taskNode(sub, tasks[sub], new Set([...seen, id]))),
    ];
    const verdictText =
      verdict === null
        ? "not verified"
        : verdict === "pass"
          ? "verifier ✓ pass"
          : "verifier ✗ fail";
    const attempts = verifiers.length > 1 ? ` after ${verifiers.length} attempts` : "";
    return {
      label: `task ${id} — ${status}, ${verdictText}${attempts}${meta ? ` (${meta.branch})` : ""}`,
      children,
    };
  };

  const entries = stateEntries(job.history, job.priorEntries);
  const dir = jobPaths(view.n, view.round).dir;
  const children: TreeNode[] = entries.map((e, i) => {
    const lead = `${PHASES[e.state].lead}@state:${e.state.toLowerCase()}:${e.entry}`;
    const leadThread = lead.slice(lead.indexOf("@") + 1);
    const current = i === entries.length - 1 && isLiveState(job.state);
    const artifact = `${dir}/${PHASES[e.state].artifact}`;
    const taskIds = tasksUnder(leadThread);
    const header = `${e.state}${e.entry > 1 ? ` (entry ${e.entry})` : ""} ${
      e.exit
        ? `${glyph(e.exit.action)} ${e.exit.action} at ${time(e.exit.at)} by ${e.exit.by}: ${oneLine(e.exit.reason, 120)}`
        : current
          ? "● current"
          : ""
    }`.trimEnd();
    return {
      label: header,
      children: [
        ...asksOf(lead),
        {
          label: view.files.includes(artifact)
            ? `artifact ${artifact}`
            : `artifact ${artifact} (not written)`,
        },
        ...[instanceNode(lead)].filter((x): x is TreeNode => x !== null),
        ...taskIds.map((id) => taskNode(id, tasks[id])),
      ],
    };
  });
  const last = job.history.at(-1);
  if (!isLiveState(job.state) && last) {
    children.push({ label: `${job.state} at ${time(last.at)}` });
  }
  const others = view.instances.filter((i) => !placed.has(i.key));
  if (others.length > 0) {
    children.push({
      label: "other instances",
      children: others.map((i) => instanceNode(i.key)).filter((x): x is TreeNode => x !== null),
    });
  }
  children.push(...setupNodes(view), ...blockedNodes(view));
  const followUp = view.engine?.followUp;
  const head = `${followUp === undefined ? `Job #${view.n}` : `Follow-up ${followUp.round} of job #${view.n}`} "${oneLine(job.title, 100)}" — ${job.state} · ${countOf(job.turns, "turn")} · ${formatUsage(job.usage)} · ${formatUsd(job.costUsd)}${
    job.backtracks > 0 ? ` · ${countOf(job.backtracks, "backtrack")}` : ""
  }`;
  // A paused job says so first, with who paused it, since when and why.
  const paused = view.engine?.paused;
  if (followUp !== undefined) {
    const r = followUp.request;
    children.unshift({
      label: `asked after ${followUp.parent.state} by @${r.by}: ${
        r.kind === "review"
          ? `review ${r.id} requesting changes (${countOf(r.comments.length, "inline comment")})`
          : `/cfa on the ${r.on === "pull" ? "pull request" : "issue"}`
      }: ${oneLine(requestSummary(r), 160)}; from ${followUp.base.slice(0, 7)}`,
    });
  }
  return [
    ...drawTree({ label: head, children }),
    ...(paused !== undefined && isLiveState(job.state)
      ? [
          `⏸ PAUSED by @${paused.by} since ${time(paused.since)}: ${oneLine(paused.reason, 160)} (\`cfa resume ${view.n}\` releases it)`,
        ]
      : []),
    "",
    `Totals over ${countOf(totals.instances, "instance")}: ${countOf(totals.turns, "turn")}, ${countOf(totals.toolCalls, "tool call")}, ${formatUsage(totals.usage)}, ${formatUsd(totals.cost)} at current prices (state.json records ${formatUsd(job.costUsd)}).`,
    `Records: ${view.ref} at ${view.head.slice(0, 7)}, under ${dir}/`,
    ...view.problems.map((p) => `! ${p}`),
  ];
}

// Agent-controlled text (a command line, a host a command asked for, a setup's output) is
// printed to a terminal: no escape sequence or other control character gets through.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/gu;
const plain = (text: string, max: number) => oneLine(text.replace(CONTROL, ""), max);

/** A setup command: how it ended (setup installs; it is not a test run to count). */
function evidenceLine(e: CommandEvidence): string {
  // The audit line of a bash call: programs it named that the role's command list does not.
  const unlisted =
    e.unlisted !== undefined && e.unlisted.length > 0
      ? ` (not on the role's command list: ${plain(e.unlisted.join(", "), 80)})`
      : "";
  return `${plain(e.command, 80)} ${commandEnd(e)}${e.summary ? `, ${plain(e.summary, 120)}` : ""}${unlisted}`;
}

/** The workspaces' setup runs, and the failure the job waits on. */
function setupNodes(view: JobView): TreeNode[] {
  const setup = view.engine?.setup;
  if (setup === undefined) return [];
  const children: TreeNode[] = setup.runs.map((run) => ({
    label: `${run.workspace}: ${run.ok ? "ok" : "failed"} at ${run.at} — ${run.commands
      .map((c) => `${evidenceLine(c)} (${(c.durationMs / 1000).toFixed(1)} s)`)
      .join("; ")}`,
  }));
  if (setup.failed !== undefined) {
    children.push({
      label: `waiting: ${plain(setup.failed.command, 80)} failed in ${setup.failed.workspace}${setup.failed.retry ? " (retry asked)" : ""}; last lines: ${plain(setup.failed.tail, 300)}`,
    });
  }
  return [
    { label: `setup (${setup.runs.length} run${setup.runs.length === 1 ? "" : "s"})`, children },
  ];
}

/** Requests the egress proxy refused, from agents' commands and setup. */
function blockedNodes(view: JobView): TreeNode[] {
  const blocked = view.engine?.blocked;
  if (blocked === undefined || blocked.entries.length === 0) return [];
  return [
    {
      label: `blocked requests (${blocked.entries.length} kinds${blocked.dropped > 0 ? `, ${blocked.dropped} more not kept` : ""})`,
      children: blocked.entries.map((e) => ({
        label: `${plain(blockedHost(e), 80)} ${e.protocol} ${e.reason} × ${e.count} — ${plain(e.command, 80)} by ${plain(e.by, 60)}`,
      })),
    },
  ];
}

/** Each entry into a live state, with the transition that ended it. */
/**
 * Each entry into a live state, in order, numbered as its lead's thread is: a follow-up's
 * count on from the jobs before it (`prior`, the record's priorEntries).
 */
export function stateEntries(
  history: readonly TransitionEntry[],
  prior: Partial<Record<LiveState, number>> = {},
): StateEntry[] {
  const entries: StateEntry[] = [{ state: "INTENT", entry: 1 + (prior.INTENT ?? 0) }];
  for (const h of history) {
    const open = entries.at(-1);
    if (open) open.exit = h;
    if (isLiveState(h.to)) {
      const to = h.to;
      entries.push({
        state: to,
        entry: entries.filter((e) => e.state === to).length + 1 + (prior[to] ?? 0),
      });
    }
  }
  return entries;
}

function glyph(action: TransitionEntry["action"]): string {
  switch (action) {
    case "APPROVED_INTENT":
    case "APPROVED_PLAN":
    case "APPROVED_WORK":
      return "✓";
    case "REALIGN":
    case "REPLAN":
      return "↩";
    case "WITHDRAW":
      return "⊘";
    case "FAILURE":
      return "✗";
    default: {
      const never: never = action;
      return String(never);
    }
  }
}

/** A decision's note, quoted on one line. */
function noteOf(meta: EscalationMeta): string {
  return meta.note ? `: "${oneLine(meta.note, 160)}"` : "";
}

function askLabel(id: string, meta: EscalationMeta): string {
  const what =
    meta.kind === "gate"
      ? `gate ${id} ${meta.artifact?.split("/").pop() ?? ""}${meta.gateSha ? ` at ${meta.gateSha.slice(0, 7)}` : ""}`
      : `question ${id}: ${oneLine(meta.text, 100)}`;
  const by =
    meta.answeredBy === "proxy" ? "the proxy" : meta.answeredBy ? `@${meta.answeredBy}` : "";
  switch (meta.verdict) {
    case "approved":
      return `${what} — approved by ${by}${noteOf(meta)}`;
    case "changes":
      return `${what} — changes requested by ${by}${noteOf(meta)}`;
    case "answer":
      return `${what} — answered by ${by}`;
    case "withdraw":
      return `${what} — withdrawn by ${by}`;
    case "superseded":
      return `${what} — superseded: asked again before anyone answered`;
    case undefined:
      return `${what} — open`;
    default: {
      const never: never = meta.verdict;
      return `${what} — ${String(never)}`;
    }
  }
}

function instanceStats(
  inst: InstanceView,
  view: JobView,
  options: InspectOptions,
  totals: Totals,
): string {
  const usage: ModelUsage = {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  };
  let turns = 0;
  let calls = 0;
  for (const t of inst.turns) {
    calls += t.toolUses.length;
    if (t.usage === null) continue;
    turns += 1;
    usage.inputTokens += t.usage.inputTokens;
    usage.outputTokens += t.usage.outputTokens;
    usage.cacheReadTokens += t.usage.cacheReadTokens;
    usage.cacheWriteTokens += t.usage.cacheWriteTokens;
  }
  // Priced at the model the role is configured with now: transcripts do not name the model.
  const model = isRole(inst.agent) ? options.resolveModel(view.config.models[inst.agent]) : null;
  const cost = model === null ? 0 : options.price(model, usage);
  totals.instances += 1;
  totals.turns += turns;
  totals.toolCalls += calls;
  totals.usage.inputTokens += usage.inputTokens;
  totals.usage.outputTokens += usage.outputTokens;
  totals.usage.cacheReadTokens += usage.cacheReadTokens;
  totals.usage.cacheWriteTokens += usage.cacheWriteTokens;
  totals.cost += cost;
  return `${countOf(turns, "turn")}, ${countOf(calls, "tool call")}, ${formatUsage(usage)}, ${formatUsd(cost)}${model ? ` (${model})` : ""}`;
}

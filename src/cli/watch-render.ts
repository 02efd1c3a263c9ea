// `cfa watch`: the live log rebuilt from a job's records (pure). Every line comes from a
// line of bus.jsonl and carries its `at`, so the log reads the same in another terminal,
// an hour later, or on a clone; state.json and the transcripts add what the bus does not
// say (artifact names, verdicts, tool-call counts).

import type { ProgressLine } from "../engine/index.js";
import { addressKey, threads, type Address } from "../protocol/address.js";
import type { BusLine, Content } from "../protocol/bus/index.js";
import { isLiveState, type State } from "../protocol/fsm.js";
import { PHASES } from "../skills/phases.js";
import type { JobView } from "./job-view.js";
import { oneLine } from "./live-log.js";
import { countOf } from "./count-of.js";
import { evidenceSuffix } from "../records/command-evidence.js";
import { ACTIONS } from "../protocol/fsm.js";
import { requestSummary } from "../records/follow-up-request.js";

/**
 * Every event a watch line can have: the live log of a running command prints a progress
 * line with one of these only as the records say it (live-records-log.ts), and any other
 * as a note of the run.
 */
export const WATCH_EVENTS: ReadonlySet<string> = new Set([
  ...ACTIONS,
  ...["START", "DISPATCH", "SPARK", "QUEUED", "DROP", "REPLY", "VERDICT", "TURN", "ASSERT"],
  ...["ASK", "APPROVAL", "QUESTION", "APPROVED", "CHANGES", "ANSWER", "WITHDRAW", "INTERVENE"],
  ...["RETRY", "CONFLICT", "MERGING", "MERGED", "OUTCOME", "REFUSED", "PAUSED", "RESUMED"],
]);

/** A log line and the bus line it came from (`watch --follow` prints each seq once). */
export interface WatchLine extends ProgressLine {
  seq: number;
  /**
   * True when the line will read differently once later records land (a gate not yet
   * pinned to its commit, a task not yet merged): the live log holds it until then.
   */
  unsettled?: boolean;
}

/** What the rendering reads of a job's view (the live log builds only this: live-records-log.ts). */
export type WatchView = Pick<
  JobView,
  "n" | "round" | "job" | "engine" | "lines" | "instances" | "config"
>;

export function renderWatch(view: WatchView): WatchLine[] {
  const out: WatchLine[] = [];
  const n = view.n;
  const instances = new Map(view.instances.map((i) => [i.key, i]));
  const turnsSeen = new Map<string, number>();
  const lastTurnLine = new Map<string, { entry: WatchLine; batch: number }>();
  const requester = view.engine?.requester ?? "you";
  let state: State = "INTENT";

  const push = (
    line: BusLine,
    who: string,
    event: string,
    detail: string,
    verbose = false,
    at = line.at,
  ): WatchLine => {
    const entry: WatchLine = { seq: line.seq, at, job: n, who, event, detail, verbose };
    out.push(entry);
    return entry;
  };

  for (const line of view.lines) {
    switch (line.type) {
      case "root": {
        const title = view.job ? `"${oneLine(view.job.title, 120)}"` : "";
        const f = view.engine?.followUp;
        push(
          line,
          "JOB",
          "START",
          f === undefined
            ? title
            : `follow-up ${f.round} of #${n} after ${f.parent.state}, asked by @${f.request.by} (${
                f.request.kind === "review" ? `review ${f.request.id}` : "/cfa"
              }): ${oneLine(requestSummary(f.request), 160)}`,
        );
        break;
      }
      case "spark":
      case "unblock": {
        const to = line.to;
        if (to.thread.startsWith("state:")) {
          const live = to.thread.split(":")[1]?.toUpperCase() ?? state;
          push(line, live, "START", `${to.agent} sparked on ${to.thread}`);
        } else if (to.thread.startsWith("dispatch:")) {
          // A task may dispatch tasks: a sub-task names the task it hangs under.
          const id = to.thread.slice("dispatch:".length);
          const under = taskTag(line.parent);
          const waited = line.type === "unblock" ? " (a slot freed)" : "";
          push(
            line,
            state,
            "DISPATCH",
            `task ${id}${under}${waited}: ${oneLine(line.content.text, 120)}`,
            true,
          );
        } else {
          push(line, to.agent, "SPARK", addressKey(to), true);
        }
        break;
      }
      case "block": {
        const id = line.to.thread.slice("dispatch:".length);
        push(
          line,
          state,
          "QUEUED",
          `task ${id}${taskTag(line.from.thread)} waits for a free slot (fan-out cap ${view.config.fanOut})`,
        );
        break;
      }
      case "term-blocked": {
        const id = line.to.thread.slice("dispatch:".length);
        push(line, state, "DROP", `task ${id} never started: its parent ended`, true);
        break;
      }
      case "deliver":
        if (line.content.kind === "reply") {
          push(line, addressKey(line.from), "REPLY", line.content.text, isTask(line.from));
        } else if (line.content.kind === "verdict" && line.to.thread.startsWith("dispatch:")) {
          const id = line.to.thread.slice("dispatch:".length);
          push(line, "VERIFY", "VERDICT", `${id} ✗ fail — ${issuesOf(line.content.text)}`);
        }
        break;
      case "turn-end": {
        if (line.a.agent === "cfa") break; // the orchestrator's moves show as their effects
        const key = addressKey(line.a);
        // A turn that sent and then asked ends twice in one batch ([send-step], then
        // [ask-step]): still one turn of the agent's.
        if (lastTurnLine.get(key)?.batch === line.batch) break;
        const turn = (turnsSeen.get(key) ?? 0) + 1;
        turnsSeen.set(key, turn);
        const calls = instances.get(key)?.turns.find((t) => t.turn === turn)?.toolUses.length;
        const entry = push(
          line,
          key,
          "TURN",
          `turn ${turn}${calls === undefined ? "" : ` (${countOf(calls, "tool call")})`}`,
          isTask(line.a),
        );
        lastTurnLine.set(key, { entry, batch: line.batch });
        break;
      }
      case "ask": {
        const gate = line.question.kind === "gate";
        push(
          line,
          addressKey(line.caller),
          gate ? "ASSERT" : "ASK",
          `${line.id}: ${line.question.text}`,
        );
        break;
      }
      case "escalate": {
        const meta = view.engine?.escalations[line.id];
        if (meta?.kind === "gate" || line.framed.kind === "gate") {
          const artifact = isLiveState(meta?.state)
            ? PHASES[meta.state].artifact
            : (meta?.artifact?.split("/").pop() ?? "the artifact");
          const at = meta?.gateSha ? ` at ${meta.gateSha.slice(0, 7)}` : "";
          const entry = push(
            line,
            "GATE",
            "APPROVAL",
            `⏸ ${artifact} waits for @${requester}'s review${at}`,
          );
          if (!meta?.gateSha && meta?.answeredAt === undefined) entry.unsettled = true;
        } else {
          push(
            line,
            "ASK",
            "QUESTION",
            `⏸ ${line.id} waits for @${requester}'s answer: ${line.framed.text}`,
          );
        }
        break;
      }
      case "human-reply": {
        const by = stringData(line.reply, "by") ?? "someone";
        const verdict = stringData(line.reply, "verdict");
        const words = dataText(line.reply.text);
        if (verdict === "approved") push(line, "HUMAN", "APPROVED", `${line.id} by @${by}`);
        else if (verdict === "changes")
          push(line, "HUMAN", "CHANGES", `${line.id} by @${by}: ${words}`);
        else push(line, "HUMAN", "ANSWER", `${line.id} by @${by}: ${words}`);
        break;
      }
      case "respond": {
        if (view.engine?.escalations[line.id]?.answeredBy !== "proxy") break; // a relay
        const verdict = stringData(line.answer, "verdict");
        const event = line.answer.text.startsWith("[WITHDRAW]")
          ? "WITHDRAW"
          : verdict === "approved"
            ? "APPROVED"
            : verdict === "changes"
              ? "CHANGES"
              : "ANSWER";
        push(line, "PROXY", event, `${line.id} answered by the proxy: ${line.answer.text}`);
        break;
      }
      case "interrupt":
        if (line.content.kind === "intervention") {
          const by = stringData(line.content, "by") ?? "someone";
          // What the orchestrator observed (the person's words) on its own thread, then the
          // interrupt it placed on the lead's: say the words once, then where they went.
          if (line.thread === threads.job()) {
            push(line, "HUMAN", "INTERVENE", `@${by}: ${line.content.text}`);
          } else {
            const to = view.instances.find((i) => i.thread === line.thread)?.key ?? line.thread;
            push(line, "HUMAN", "INTERVENE", `@${by} → ${to}`);
          }
        } else if (line.content.kind === "recovery") {
          push(line, state, "RETRY", `${line.thread}: ${line.content.text}`);
        }
        break;
      case "terminate": {
        const id = line.thread.startsWith("dispatch:") ? line.thread.slice(9) : null;
        if (id === null) break;
        if (line.origin.rule === "send-terminate") {
          const task = view.engine?.tasks[id];
          // A sub-task merges into its parent task's branch.
          const parent = task?.parent === undefined ? undefined : view.engine?.tasks[task.parent];
          const branch = parent?.branch ?? `cfa/${n}`;
          if (task?.status === "conflict")
            push(line, state, "CONFLICT", `task ${id} did not merge into ${branch}`);
          else if (task?.status === "open")
            push(line, state, "MERGING", `task ${id} into ${branch}`).unsettled = true;
          else push(line, state, "MERGED", `task ${id} into ${branch}`);
        } else if (line.mode === "drop") {
          push(line, state, "DROP", `task ${id} dropped, branch deleted`, true);
        }
        break;
      }
      case "outcome": {
        // An outcome is consumed in the batch of the lead's turn: say it on that turn's line.
        const turn = lastTurnLine.get(addressKey(line.by));
        if (turn && turn.batch === line.batch) turn.entry.detail += `: ${line.record.outcome}`;
        else push(line, addressKey(line.by), "OUTCOME", line.record.outcome);
        break;
      }
      case "transition": {
        const e = line.entry;
        state = e.to;
        push(line, e.to, e.action, `${e.from} → ${e.to}: ${e.reason}`, false, e.at);
        break;
      }
      case "refuse":
        push(line, addressKey(line.from), "REFUSED", line.reason, true);
        break;
      case "verdict":
        push(
          line,
          "VERIFY",
          "VERDICT",
          (line.verdict === "pass"
            ? `${line.task} ✓ pass`
            : `${line.task} ✗ fail — ${countOf(line.issues.length, "issue")}`) +
            // Logs written before evidence existed say nothing of it (not "unverified").
            (line.evidence === undefined ? "" : evidenceSuffix(line.evidence)),
        );
        break;
      case "paused":
        push(line, "HUMAN", "PAUSED", `@${line.by}: ${oneLine(line.reason, 160)}`);
        break;
      case "resumed":
        push(line, "HUMAN", "RESUMED", `@${line.by}`);
        break;
      case "wake":
      case "send-empty":
      case "term-run":
      case "term-idle":
      case "term-mbox":
      case "term-send":
      case "term-ask":
      case "term-proxy":
      case "term-int":
      case "term-final":
        break; // bookkeeping of the rules, not news
      default: {
        const never: never = line;
        void never;
      }
    }
  }
  return out;
}

const isTask = (a: Address) => a.thread.startsWith("dispatch:");

/** " under task p" when `thread` is a task's: where a sub-task sits in the tree. */
const taskTag = (thread: string) =>
  thread.startsWith("dispatch:") ? ` under task ${thread.slice("dispatch:".length)}` : "";

function stringData(content: Content, key: string): string | undefined {
  const value = content.data?.[key];
  return typeof value === "string" ? value : undefined;
}

/** A person's words inside the engine's `<untrusted-data>` wrapper, on one line. */
function dataText(text: string): string {
  const inner = /<untrusted-data[^>]*>\n?([\s\S]*?)\n?<\/untrusted-data>/.exec(text)?.[1];
  return oneLine(inner ?? text, 160);
}

function issuesOf(text: string): string {
  const issues = text
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
  return oneLine(issues.length > 0 ? issues.join("; ") : text, 160);
}

// What a job waits on, said as the next command to type: every waking verb
// ends with it, and `watch` too. Pure.

import { isLiveState } from "../protocol/fsm.js";
import { PHASES } from "../skills/phases.js";
import type { JobView } from "./job-view.js";
import { oneLine } from "./live-log.js";
import { shellWord } from "./resolve-repo.js";
import { jobPaths } from "../records/job-paths.js";

export interface NextStepOptions {
  /** How the person runs the command: "cfa" or "npx cfa". */
  cli: string;
  /** Appended to every suggested command: "" or ` --repo <dir>`. */
  repoArg: string;
  /** The repository, when it is not the current folder: suggested git commands take `-C`. */
  repoDir?: string;
}

export function nextStep(view: JobView, options: NextStepOptions): string[] {
  const n = view.n;
  const job = view.job;
  const cmd = (verb: string, rest = "") =>
    `\`${options.cli} ${verb} ${n}${rest}${options.repoArg}\``;
  const git = options.repoDir === undefined ? "git" : `git -C ${shellWord(options.repoDir)}`;
  if (job === null) return [`job #${n} has no state record yet.`];
  const last = job.history.at(-1);
  const why = last ? oneLine(last.reason, 160) : "";
  switch (job.state) {
    case "DONE":
      return [
        `DONE — the work is approved. Look it over and merge it: \`${git} merge --no-ff ${view.ref}\`.`,
        `  more to do on it? ${cmd("followup", ' "…"')} starts a follow-up on ${view.ref}.`,
      ];
    case "WITHDRAWN":
      return [
        `WITHDRAWN — ${why || "withdrawn"}. The record stays on ${view.ref}.`,
        `  to take it up again: ${cmd("followup", ' "…"')}.`,
      ];
    case "FAILURE":
      return [
        `FAILURE — ${why || "the job could not recover"}. ${cmd("inspect")} shows what happened.`,
      ];
    case "INTENT":
    case "PLAN":
    case "EXECUTE":
      break;
    default: {
      const never: never = job.state;
      return [`job #${n} is in an unknown state ${String(never)}.`];
    }
  }
  const state = job.state;
  // Paused first: whatever else it waits on, nothing acts until it is resumed, so resume is
  // the command to type (what it also waits on is said, since an answer acts on resume).
  const paused = view.engine?.paused;
  if (paused !== undefined) {
    const reason = paused.reason.trim() === "" ? "" : ` (${oneLine(paused.reason, 120)})`;
    return [
      `${state} — paused by @${paused.by} since ${paused.since}${reason}: ${cmd("resume")} carries it on.`,
    ];
  }
  const wait = view.engine?.apiWait;
  if (wait !== undefined) {
    // Stopped live, not failed, since neither is the job's fault: refused credentials, or the
    // model's API away past the patience. Locally nothing wakes it again but the person.
    return wait.reason === "credentials"
      ? [`${state} — stopped, live: ${oneLine(wait.last, 300)}. Then ${cmd("resume")}.`]
      : [
          `${state} — stopped, live: the model's API did not answer since ${wait.since} (${oneLine(wait.last, 160)}). ${cmd("resume")} tries again.`,
        ];
  }
  const gate = view.pending.find((p) => p.kind === "gate");
  if (gate) {
    const artifact = isLiveState(state) ? PHASES[state].artifact : "the artifact";
    const path = gate.artifact ?? `${jobPaths(n, view.round).dir}/${artifact}`;
    return [
      `${state} — waiting on you to review ${artifact}: ${cmd("approve")} or ${cmd("reject", ' --comment "…"')}`,
      `  read it: ${git} show ${view.ref}:${path}`,
    ];
  }
  const questions = view.pending.filter((p) => p.kind === "question");
  if (questions.length > 0) {
    return [
      `${state} — waiting on your answer to ${questions.map((q) => q.id).join(", ")}:`,
      ...questions.map(
        (q) =>
          `  ${q.id}: ${oneLine(q.text, 160)}\n    answer: ${cmd("answer", ` --id ${q.id} "…"`)}`,
      ),
    ];
  }
  if (view.runnable.length > 0) {
    // A wake was cut short (Ctrl-C, a crash): the agents' mail is durable; wake them again.
    return [
      `${state} — work is waiting for ${view.runnable.join(", ")}: continue with ${cmd("resume")}.`,
    ];
  }
  return [
    `${state} — nobody is asked and no agent has work; steer it with ${cmd("intervene", ' "…"')} or stop it with ${cmd("withdraw")}.`,
  ];
}

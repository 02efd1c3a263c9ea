// What a job must be for a person's action, read from its records (a JobView): each verb's
// check before anything changes, and the second half of a refusal — what the job waits on,
// as the command that gives it. Light on purpose: the verbs' modules load it with their help
// text, before anything heavy (main.ts: \`cfa <verb> --help\` loads nothing a verb does not use).

import { isLiveState } from "../protocol/fsm.js";
import { PHASES } from "../skills/phases.js";
import { CliError } from "./cli-error.js";
import type { JobView } from "./job-view.js";

/** The job must be waiting on a review of its artifact. */
export function requireGate(view: JobView, hint: (verb: string, rest?: string) => string): void {
  requireLive(view, hint);
  if (view.pending.some((p) => p.kind === "gate")) return;
  throw new CliError(`job #${view.n} is not waiting on a review: ${waitingOn(view, hint)}`);
}

export function requireLive(view: JobView, hint: (verb: string, rest?: string) => string): void {
  const state = view.job?.state;
  if (state === "INTENT" || state === "PLAN" || state === "EXECUTE") return;
  throw new CliError(
    state === undefined
      ? `job #${view.n} has no state record yet.`
      : `job #${view.n} is ${state}: it takes no more actions. ${hint("inspect")} shows what happened.`,
  );
}

/** What the job waits on, as the command that gives it, for a refusal's second half. */
export function waitingOn(view: JobView, hint: (verb: string, rest?: string) => string): string {
  const paused = view.engine?.paused;
  if (paused !== undefined) {
    return `it is paused (by @${paused.by} since ${paused.since}); ${hint("resume")} releases it.`;
  }
  const gate = view.pending.find((p) => p.kind === "gate");
  if (gate !== undefined) {
    return `it waits on your review of ${artifactName(view, gate.artifact)} (${hint("approve")} or ${hint("reject", ' --comment "…"')}).`;
  }
  const questions = view.pending.filter((p) => p.kind === "question").map((p) => p.id);
  if (questions.length > 0)
    return `it waits on your answer to ${questions.join(", ")} (${hint("answer", ' --id <id> "…"')}).`;
  if (view.runnable.length > 0) {
    return `its agents have work: ${hint("resume")} carries on (${hint("watch", " --follow")} if a command runs them already).`;
  }
  return `nobody is asked and no agent has work (${hint("intervene", ' "…"')} steers it).`;
}

/** The file name of a gate's artifact, or of its phase's when the record names none. */
export function artifactName(view: JobView, artifact: string | undefined): string {
  if (artifact !== undefined) return artifact.split("/").pop() ?? artifact;
  const state = view.job?.state;
  return isLiveState(state) ? PHASES[state].artifact : "the artifact";
}

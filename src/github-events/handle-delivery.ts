// One delivery, start to end: read the payload, screen it, read the configuration, check
// the actor's permission live, decide, dedupe, run the effects. Shared by the Probot app
// and the worker's Actions-only mode, which differ only in how they reach GitHub.

import type { Permission } from "../ports/forge.js";
import type { Logger } from "../ports/logger.js";
import type { Decision } from "./app-action.js";
import type { AppConfigLoad } from "./app-config.js";
import { readAppEvent, type AppEvent, type RepoRef } from "./app-event.js";
import { configErrorComment, isSameConfigError } from "../comments/config-error-comment.js";
import type { CueEffects } from "./cue-effects.js";
import { decideDelivery, type Authority } from "./decide-delivery.js";
import type { Dedupe } from "./dedupe.js";
import { mayAct } from "./may-act.js";
import { postOnce } from "./post-once.js";
import { runActions, type ActionContext } from "./run-actions.js";
import { screenEvent } from "./screen-event.js";
import { triageEvent } from "./triage-event.js";
import { jobOfBranch } from "./job-branch.js";

export interface Delivery {
  /** X-GitHub-Delivery (or the Actions run id in Actions-only mode). */
  id: string;
  name: string;
  payload: unknown;
}

/** How to reach one repository's GitHub. */
export interface RepoDeps {
  effects: CueEffects;
  loadConfig(): Promise<AppConfigLoad>;
  /** The live permission (collaborator permission API), never author_association. */
  permission(login: string): Promise<Permission>;
}

export interface DeliveryDeps {
  /** Connects to the delivery's repository (named by its payload). */
  forRepo(repo: RepoRef): RepoDeps;
  dedupe: Dedupe;
  logger: Logger;
  /** The worker workflow to dispatch; default: `workflow` from the configuration. */
  workflow?: string;
  /** The logins the bot posts as: only their hidden blocks count (post-once.ts). */
  botLogins(): Promise<readonly string[]>;
  /**
   * Runs the decided effects. Default: now, in order, and the delivery fails with them (the
   * worker's route). The webhook server queues them instead and answers GitHub at once.
   */
  runDecision?: (decision: Decision, at: ActionContext) => Promise<void>;
}

export type Screened =
  | { kind: "ignored"; reason: string }
  | { kind: "screened"; repo: RepoRef; event: AppEvent; job: number };

/**
 * The look at a delivery that costs nothing: a repeat, an event the app does not handle, a
 * comment that is not a command. Pure but for the dedupe lookup; throws AppEventError when
 * a payload the app handles is malformed.
 */
export function screenDelivery(delivery: Delivery, dedupe: Pick<Dedupe, "seen">): Screened {
  if (dedupe.seen(deliveryKey(delivery))) {
    return { kind: "ignored", reason: "this delivery was handled already" };
  }
  const read = readAppEvent(delivery.name, delivery.payload);
  if (!read.ok) return { kind: "ignored", reason: read.reason };
  const screen = screenEvent(read.event);
  if (!screen.pass) return { kind: "ignored", reason: screen.reason };
  return { kind: "screened", repo: read.repo, event: read.event, job: eventJob(read.event) };
}

export function deliveryKey(delivery: Pick<Delivery, "id">): string {
  return `delivery:${delivery.id}`;
}

export type DeliveryOutcome =
  | { kind: "ignored"; reason: string }
  | { kind: "config-error"; job: number; posted: boolean }
  | { kind: "decided"; job: number; decision: Decision };

export async function handleDelivery(
  delivery: Delivery,
  deps: DeliveryDeps,
): Promise<DeliveryOutcome> {
  const outcome = await handle(delivery, deps);
  logOutcome(delivery, outcome, deps.logger);
  return outcome;
}

export function logOutcome(delivery: Delivery, outcome: DeliveryOutcome, logger: Logger): void {
  const what = `${delivery.name}.${actionOf(delivery.payload)} (delivery ${delivery.id})`;
  switch (outcome.kind) {
    case "ignored":
      logger.debug(`cfa/app: ${what} ignored: ${outcome.reason}`);
      break;
    case "config-error":
      logger.warn(`cfa/app: ${what}: .github/cfa.yml is not valid; job #${outcome.job} waits`);
      break;
    case "decided":
      logger.info(`cfa/app: ${what}: ${outcome.decision.note}`);
      break;
    default: {
      const never: never = outcome;
      throw new Error(`cfa/app: unhandled outcome ${JSON.stringify(never)}`);
    }
  }
}

async function handle(delivery: Delivery, deps: DeliveryDeps): Promise<DeliveryOutcome> {
  const screened = screenDelivery(delivery, deps.dedupe);
  if (screened.kind === "ignored") return screened;
  const { repo } = screened;
  const key = deliveryKey(delivery);

  const github = deps.forRepo(repo);
  const event = await withPullJob(screened.event, repo, github);
  if (event === null) return { kind: "ignored", reason: "the pull request is not a job's" };
  const loaded = await github.loadConfig();
  if (!loaded.ok) {
    // Which issues does a broken file concern? Those it would: its label, bots ignored.
    const triage = triageEvent(event, { label: loaded.label, allowBots: [] });
    if (!triage.act) return { kind: "ignored", reason: triage.reason };
    const { body, digest } = configErrorComment(triage.job, loaded.errors);
    const posted = await postOnce(
      github.effects,
      triage.job,
      body,
      isSameConfigError(digest),
      await deps.botLogins(),
    );
    deps.dedupe.remember(key);
    return { kind: "config-error", job: triage.job, posted };
  }
  const config = loaded.config;
  const triage = triageEvent(event, config);
  if (!triage.act) return { kind: "ignored", reason: triage.reason };

  let authority: Authority | null = null;
  if (triage.needsAuthority) {
    const permission = await github.permission(triage.actor.login);
    authority = { permission, mayAct: mayAct(triage.actor.login, permission, config.approvers) };
  }
  const decision = decideDelivery(event, triage, authority);
  if (decision.keys.length > 0 && deps.dedupe.seen(...decision.keys)) {
    return { kind: "ignored", reason: `already handled (${decision.keys.join(", ")})` };
  }
  const at: ActionContext = {
    effects: github.effects,
    workflow: deps.workflow ?? config.workflow,
    ref: repo.defaultBranch,
    delivery: delivery.id,
    logger: deps.logger,
    botLogins: () => deps.botLogins(),
  };
  await (deps.runDecision ?? ((d: Decision) => runActions(d.actions, at)))(decision, at);
  // Remembered once the effects succeeded (or were queued: the queue forgets them again if
  // they fail), so a failed delivery can be redelivered.
  deps.dedupe.remember(key, ...decision.keys);
  return { kind: "decided", job: triage.job, decision };
}

/**
 * A comment on a pull request names only the pull request: its job is the one whose branch
 * `cfa/<N>` is the pull request's head, in this repository (a fork can name a branch cfa/<N>
 * too). One read, only for a `/cfa` that passed the screen. Null: not a job's pull request.
 */
async function withPullJob(
  event: AppEvent,
  repo: RepoRef,
  github: RepoDeps,
): Promise<AppEvent | null> {
  if (event.kind !== "comment" || event.pull === undefined || event.pull.job !== null) {
    return event;
  }
  const head = await github.effects.pullHead(event.pull.number);
  const job = head === null ? null : jobOfBranch(head.ref);
  if (job === null || head?.repo?.toLowerCase() !== `${repo.owner}/${repo.repo}`.toLowerCase()) {
    return null;
  }
  return { ...event, pull: { number: event.pull.number, job } };
}

/** The job an event concerns: its issue, or the job whose branch its pull request is. */
function eventJob(event: AppEvent): number {
  switch (event.kind) {
    case "issue":
      return event.issue.number;
    case "comment":
      // A pull request's comment before its job is known is queued under the pull request.
      return event.pull?.job ?? event.pull?.number ?? event.issue.number;
    case "review":
    case "pull-closed":
      return event.job;
    default: {
      const never: never = event;
      throw new Error(`cfa/app: unhandled event ${JSON.stringify(never)}`);
    }
  }
}

function actionOf(payload: unknown): string {
  const action = (payload as { action?: unknown } | null)?.action;
  return typeof action === "string" ? action : "?";
}

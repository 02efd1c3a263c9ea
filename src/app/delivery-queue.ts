// Answer first, work after. GitHub gives a delivery 10 seconds and does not
// redeliver a failed one by itself
// (https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries),
// and @octokit/webhooks' middleware answers only once every handler has settled
// (node_modules/@octokit/webhooks/dist-src/middleware/create-middleware.js: 200 after
// verifyAndReceive, 202 "still processing" after its timeout). So the handler only screens
// the delivery (no API call), queues it and returns: the signature is checked by then and
// GitHub gets its 200 at once.
//
// The work runs in two bounded queues, at GitHub's pace (Probot's Octokit throttles content
// writes to about one a second, @octokit/plugin-throttling; its write limiter is keyed by
// `throttle.id`, which Probot leaves at "no-id", so the pace is the whole process's):
// - reads: triage (configuration, live permission, decide), a few at a time;
// - writes: the effects; within an installation a waiting dispatch always goes before a
//   waiting 👀 or reply, and a job's 👀 only after its dispatch. Cues for one job coalesce
//   (job-cues.ts).
// Both are fair (fair-queue.ts): installations take turns, and so do the jobs
// of one installation, so a flood of deliveries from one installation waits behind itself,
// never in front of another installation's delivery. What is refused when too much waits
// is refused to the installation holding the most (503, for that source only where it
// can): see `refusal` below.
// Work lost in a restart, or refused with 503 and never redelivered, is recovered by the
// worker's scheduled sweep: a cue never sent leaves a comment the job has not read (its
// cursor is behind the newest comment), a label nobody started, or a job nobody
// runs, and the sweep dispatches each of those (src/worker/sweep.ts, job-needs-wake.ts).

import type { AppAction, Decision } from "../github-events/app-action.js";
import type { RepoRef } from "../github-events/app-event.js";
import type { Dedupe } from "../github-events/dedupe.js";
import {
  deliveryKey,
  handleDelivery,
  logOutcome,
  screenDelivery,
  type Delivery,
  type RepoDeps,
} from "../github-events/handle-delivery.js";
import { runActions, type ActionContext } from "../github-events/run-actions.js";
import { installationOf } from "../github-events/installation-of.js";
import type { Logger } from "../ports/logger.js";
import type { BotLogins } from "./app-logins.js";
import { createFairQueue } from "./fair-queue.js";
import { createJobCues } from "./job-cues.js";

export interface DeliveryQueueOptions {
  dedupe: Dedupe;
  /** The logins the app posts as (app-logins.ts). */
  botLogins: BotLogins;
  /** For the queue's own lines; each delivery logs with its own logger. */
  logger: Logger;
  /**
   * Deliveries and effects waiting at once; past it a delivery is refused with 503 when its
   * installation already holds `minShare` or more of them.
   */
  maxWaiting?: number;
  /** What one installation may have waiting; past it its deliveries are refused (503). */
  maxWaitingPerSource?: number;
  /** Below this an installation's delivery is taken even when maxWaiting is reached. */
  minShare?: number;
  /** Deliveries triaged at once (each is a few reads). */
  readConcurrency?: number;
  /** Deliveries of one installation triaged at once. */
  readPerSource?: number;
  /** Effects in flight at once; Probot's throttling spaces their starts anyway. */
  writeConcurrency?: number;
  /** A job that keeps receiving deliveries is dispatched at least this often. */
  maxCueDelayMs?: number;
  /**
   * "installation": installations take turns (the default). "none": every delivery is one
   * source, as the queue was before it was fair (positive controls and the bench's baseline).
   */
  fairness?: "installation" | "none";
  now?: () => number;
}

export type QueueSettings = Omit<DeliveryQueueOptions, "dedupe" | "botLogins" | "logger" | "now">;

export const QUEUE_DEFAULTS = {
  maxWaiting: 2000,
  maxWaitingPerSource: 500,
  minShare: 20,
  readConcurrency: 8,
  readPerSource: 4,
  writeConcurrency: 2,
  maxCueDelayMs: 10_000,
  fairness: "installation",
} as const satisfies Required<QueueSettings>;

export type Accepted = "queued" | "ignored";

export interface DeliveryQueue {
  /**
   * Takes a delivery whose signature was verified and returns at once. Throws
   * AppEventError for a malformed payload the app handles, QueueFullError when too much is
   * waiting: both fail the delivery, so it shows in GitHub's log and can be redelivered.
   */
  accept(delivery: Delivery, forRepo: (repo: RepoRef) => RepoDeps, logger?: Logger): Accepted;
  /** Resolves when no delivery or effect is waiting or running. */
  onIdle(): Promise<void>;
  /** Deliveries and effects waiting or running. */
  size(): number;
  /** Deliveries waiting for triage or in it (their cues are not all decided yet). */
  triaging(): number;
  /** Deliveries and effects waiting or running for one installation (`installation:<id>`). */
  sizeOf(source: string): number;
}

export class QueueFullError extends Error {
  override readonly name = "QueueFullError";
  /** Read by @octokit/webhooks' middleware as the HTTP status of the answer. */
  readonly status = 503;
}

// Within an installation, the highest priority first (fair-schedule.ts).
const PRIORITY = { dispatch: 2, reply: 1, react: 0 } as const;

/** The installation a delivery is for: the unit of fairness. */
export function sourceOf(payload: unknown): string {
  const installation = installationOf(payload);
  return installation === null ? "installation:none" : `installation:${installation}`;
}

export function createDeliveryQueue(options: DeliveryQueueOptions): DeliveryQueue {
  const settings = {
    maxWaiting: options.maxWaiting ?? QUEUE_DEFAULTS.maxWaiting,
    maxWaitingPerSource: options.maxWaitingPerSource ?? QUEUE_DEFAULTS.maxWaitingPerSource,
    minShare: options.minShare ?? QUEUE_DEFAULTS.minShare,
    readConcurrency: options.readConcurrency ?? QUEUE_DEFAULTS.readConcurrency,
    readPerSource: options.readPerSource ?? QUEUE_DEFAULTS.readPerSource,
    writeConcurrency: options.writeConcurrency ?? QUEUE_DEFAULTS.writeConcurrency,
    maxCueDelayMs: options.maxCueDelayMs ?? QUEUE_DEFAULTS.maxCueDelayMs,
    fairness: options.fairness ?? QUEUE_DEFAULTS.fairness,
  };
  const sourceFor = (payload: unknown) =>
    settings.fairness === "none" ? "all" : sourceOf(payload);
  const now = options.now ?? (() => Date.now());
  const reads = createFairQueue({
    concurrency: settings.readConcurrency,
    perSource: settings.readPerSource,
  });
  // One write of an installation at a time: the throttle spaces them anyway, and a slot
  // held waiting on it would be a slot another installation cannot use.
  const writes = createFairQueue({ concurrency: settings.writeConcurrency, perSource: 1 });
  const inFlight = new Set<string>();
  /** The installation of each job with work queued: its writes take that job's turn. */
  const sourceOfJob = new Map<string, { source: string; uses: number }>();
  let outstanding = 0;
  let idle: (() => void)[] = [];

  // Every piece of work goes through track(), so onIdle() sees chained effects too.
  const track = <T>(work: Promise<T>): Promise<T> => {
    outstanding += 1;
    return work.finally(() => {
      outstanding -= 1;
      if (outstanding === 0) {
        const waiting = idle;
        idle = [];
        for (const resolve of waiting) resolve();
      }
    });
  };
  const holdJob = (job: string, source: string): (() => void) => {
    const held = sourceOfJob.get(job) ?? { source, uses: 0 };
    held.uses += 1;
    sourceOfJob.set(job, held);
    return () => {
      held.uses -= 1;
      if (held.uses === 0) sourceOfJob.delete(job);
    };
  };
  const write = (
    source: string,
    job: string,
    priority: number,
    run: () => Promise<void>,
  ): Promise<void> => track(writes.add({ source, job, priority }, run));
  const waitingOf = (source: string) => reads.sizeOf(source) + writes.sizeOf(source);
  const waitingAll = () => reads.waiting() + reads.running() + writes.waiting() + writes.running();
  /** Why a delivery from `source` is refused now, or null (only the flooder is refused). */
  const refusal = (source: string): string | null => {
    const mine = waitingOf(source);
    const all = waitingAll();
    if (mine >= settings.maxWaitingPerSource) {
      return `${mine} deliveries and effects of ${source} are waiting (maxWaitingPerSource ${settings.maxWaitingPerSource})`;
    }
    if (all >= settings.maxWaiting && mine >= settings.minShare) {
      return `${all} deliveries and effects are waiting (maxWaiting ${settings.maxWaiting}), ${mine} of them ${source}'s`;
    }
    // However few each holds, memory stays bounded.
    if (all >= 2 * settings.maxWaiting) {
      return `${all} deliveries and effects are waiting (twice maxWaiting ${settings.maxWaiting})`;
    }
    return null;
  };

  const cues = createJobCues({
    // A burst is flushed while one of its deliveries is in triage, so its job is held.
    enqueue: (send, job) =>
      write(sourceOfJob.get(job)?.source ?? "installation:none", job, PRIORITY.dispatch, send),
    maxDelayMs: settings.maxCueDelayMs,
    now,
  });

  const schedule = (
    job: string,
    delivery: Delivery,
    decision: Decision,
    at: ActionContext,
  ): Promise<void> => {
    const source = sourceFor(delivery.payload);
    const failed = (what: string) => (error: unknown) => {
      // A redelivery of this delivery may try again; the sweep wakes the job meanwhile.
      options.dedupe.forget(deliveryKey(delivery), ...decision.keys);
      at.logger.error(
        `cfa/app: ${what} for delivery ${delivery.id} failed: ${error instanceof Error ? error.message : String(error)}; the scheduled sweep wakes the job`,
      );
    };
    const cueActions = decision.actions.filter(
      (a): a is Extract<AppAction, { kind: "dispatch" | "cancel-runs" }> =>
        a.kind === "dispatch" || a.kind === "cancel-runs",
    );
    const dispatch = cueActions.find((a) => a.kind === "dispatch");
    // A job's 👀 waits for its dispatch: the cue is what matters, the 👀 says it was sent.
    let cued: Promise<boolean> = Promise.resolve(true);
    if (dispatch !== undefined) {
      cued = track(
        cues
          .cue(job, {
            cancel: cueActions.some((a) => a.kind === "cancel-runs"),
            send: (cancel) =>
              runActions(
                [
                  ...(cancel ? [{ kind: "cancel-runs" as const, job: dispatch.job }] : []),
                  dispatch,
                ],
                at,
              ),
          })
          .then(
            () => true,
            (error: unknown) => {
              failed(`the dispatch of job #${dispatch.job}`)(error);
              return false;
            },
          ),
      );
    } else if (cueActions.length > 0) {
      void write(source, job, PRIORITY.dispatch, () => runActions(cueActions, at)).catch(
        failed("a cancel"),
      );
    }
    for (const action of decision.actions) {
      switch (action.kind) {
        case "dispatch":
        case "cancel-runs":
          break; // cued above
        case "react":
          void track(
            cued.then((sent) =>
              sent ? write(source, job, PRIORITY.react, () => runActions([action], at)) : undefined,
            ),
          ).catch(failed("the 👀"));
          break;
        case "refuse-start":
        case "refuse-command":
        case "refuse-review":
        case "reply-dismissed":
          // A reply to the person: it waits for nothing and no cue waits for it.
          void write(source, job, PRIORITY.reply, () => runActions([action], at)).catch(
            failed("the reply"),
          );
          break;
        default: {
          // A new kind of action must be scheduled here, or it would be dropped unseen.
          const never: never = action;
          throw new Error(`cfa/app: unscheduled action ${JSON.stringify(never)}`);
        }
      }
    }
    return Promise.resolve();
  };

  return {
    accept(delivery, forRepo, logger = options.logger) {
      if (inFlight.has(delivery.id)) {
        logger.debug(`cfa/app: delivery ${delivery.id} is queued already`);
        return "ignored";
      }
      const screened = screenDelivery(delivery, options.dedupe);
      if (screened.kind === "ignored") {
        logOutcome(delivery, screened, logger);
        return "ignored";
      }
      const source = sourceFor(delivery.payload);
      const refused = refusal(source);
      if (refused !== null) {
        throw new QueueFullError(
          `cfa/app: ${refused}; redeliver this one later, or the scheduled sweep wakes its job`,
        );
      }
      const { owner, repo } = screened.repo;
      const job = `${owner}/${repo}#${screened.job}`;
      inFlight.add(delivery.id);
      cues.expect(job);
      // The job's installation is known from here until its last effect has run.
      const release = holdJob(job, source);
      void track(
        reads
          .add({ source, job, priority: 0 }, async () => {
            try {
              // Not before the deliveries already received are answered: a job started by
              // add() runs at once, and its first steps (screening again, the client, the
              // first request) would otherwise run before Node reads the next request.
              // setImmediate runs after the event loop's pending I/O
              // (https://nodejs.org/en/learn/asynchronous-work/event-loop-timers-and-nexttick).
              await new Promise<void>((resolve) => setImmediate(resolve));
              await handleDelivery(delivery, {
                forRepo,
                dedupe: options.dedupe,
                logger,
                botLogins: options.botLogins,
                runDecision: (decision, at) => schedule(job, delivery, decision, at),
              });
            } catch (error) {
              // Not remembered, so a redelivery tries again; the sweep wakes the job meanwhile.
              logger.error(
                `cfa/app: delivery ${delivery.id} (${delivery.name}) failed: ${error instanceof Error ? error.message : String(error)}`,
              );
            } finally {
              inFlight.delete(delivery.id);
              cues.settle(job);
            }
          })
          .finally(release),
      );
      return "queued";
    },
    onIdle: () =>
      outstanding === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve)),
    size: () => outstanding,
    triaging: () => reads.waiting() + reads.running(),
    sizeOf: waitingOf,
  };
}

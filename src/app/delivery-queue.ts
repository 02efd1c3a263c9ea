// Answer first, work after (issue 10 §2). GitHub gives a delivery 10 seconds and does not
// redeliver a failed one by itself
// (https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries),
// and @octokit/webhooks' middleware answers only once every handler has settled
// (node_modules/@octokit/webhooks/dist-src/middleware/create-middleware.js: 200 after
// verifyAndReceive, 202 "still processing" after its timeout). So the handler only screens
// the delivery (no API call), queues it and returns: the signature is checked by then and
// GitHub gets its 200 at once.
//
// The work runs in two bounded queues, at GitHub's pace (Probot's Octokit throttles content
// writes to about one a second, @octokit/plugin-throttling):
// - reads: triage (configuration, live permission, decide), a few at a time;
// - writes: the effects, one priority queue, so a waiting dispatch always goes before a
//   waiting 👀 or reply, and a job's 👀 only after its dispatch. Cues for one job coalesce
//   (job-cues.ts).
// Work lost in a restart is recovered by the worker's scheduled sweep: a cue never sent
// leaves a comment the job has not read, a label nobody started, or a job nobody runs, and
// the sweep dispatches each of those (src/worker/sweep.ts, job-needs-wake.ts).

import PQueue from "p-queue";
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
import type { Logger } from "../ports/logger.js";
import type { BotLogins } from "./app-logins.js";
import { createJobCues } from "./job-cues.js";

export interface DeliveryQueueOptions {
  dedupe: Dedupe;
  /** The logins the app posts as (app-logins.ts). */
  botLogins: BotLogins;
  /** For the queue's own lines; each delivery logs with its own logger. */
  logger: Logger;
  /** Deliveries and effects waiting at once; past it a delivery is refused with 503. */
  maxWaiting?: number;
  /** Deliveries triaged at once (each is a few reads). */
  readConcurrency?: number;
  /** Effects in flight at once; Probot's throttling spaces their starts anyway. */
  writeConcurrency?: number;
  /** A job that keeps receiving deliveries is dispatched at least this often. */
  maxCueDelayMs?: number;
  now?: () => number;
}

export const QUEUE_DEFAULTS = {
  maxWaiting: 2000,
  readConcurrency: 8,
  writeConcurrency: 2,
  maxCueDelayMs: 10_000,
} as const;

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
}

export class QueueFullError extends Error {
  override readonly name = "QueueFullError";
  /** Read by @octokit/webhooks' middleware as the HTTP status of the answer. */
  readonly status = 503;
}

// p-queue runs the highest priority first.
const PRIORITY = { dispatch: 2, reply: 1, react: 0 } as const;

export function createDeliveryQueue(options: DeliveryQueueOptions): DeliveryQueue {
  const settings = {
    maxWaiting: options.maxWaiting ?? QUEUE_DEFAULTS.maxWaiting,
    readConcurrency: options.readConcurrency ?? QUEUE_DEFAULTS.readConcurrency,
    writeConcurrency: options.writeConcurrency ?? QUEUE_DEFAULTS.writeConcurrency,
    maxCueDelayMs: options.maxCueDelayMs ?? QUEUE_DEFAULTS.maxCueDelayMs,
  };
  const now = options.now ?? (() => Date.now());
  const reads = new PQueue({ concurrency: settings.readConcurrency });
  const writes = new PQueue({ concurrency: settings.writeConcurrency });
  const inFlight = new Set<string>();
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
  const write = (priority: number, run: () => Promise<void>): Promise<void> =>
    track(writes.add(run, { priority }));

  const cues = createJobCues({
    enqueue: (send) => write(PRIORITY.dispatch, send),
    maxDelayMs: settings.maxCueDelayMs,
    now,
  });

  const schedule = (
    job: string,
    delivery: Delivery,
    decision: Decision,
    at: ActionContext,
  ): Promise<void> => {
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
      void write(PRIORITY.dispatch, () => runActions(cueActions, at)).catch(failed("a cancel"));
    }
    for (const action of decision.actions) {
      switch (action.kind) {
        case "dispatch":
        case "cancel-runs":
          break; // cued above
        case "react":
          void track(
            cued.then((sent) =>
              sent ? write(PRIORITY.react, () => runActions([action], at)) : undefined,
            ),
          ).catch(failed("the 👀"));
          break;
        case "refuse-start":
        case "reply-dismissed":
          // A reply to the person: it waits for nothing and no cue waits for it.
          void write(PRIORITY.reply, () => runActions([action], at)).catch(failed("the reply"));
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
      if (reads.size + writes.size >= settings.maxWaiting) {
        throw new QueueFullError(
          `cfa/app: ${reads.size + writes.size} deliveries and effects are waiting (maxWaiting ${settings.maxWaiting}); redeliver this one later, or the scheduled sweep wakes its job`,
        );
      }
      const { owner, repo } = screened.repo;
      const job = `${owner}/${repo}#${screened.job}`;
      inFlight.add(delivery.id);
      cues.expect(job);
      void track(
        reads.add(async () => {
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
        }),
      );
      return "queued";
    },
    onIdle: () =>
      outstanding === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve)),
    size: () => outstanding,
    triaging: () => reads.size + reads.pending,
  };
}

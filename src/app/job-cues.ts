// Cues for one job coalesce into one dispatch per burst. A dispatch is only a
// cue: the run it starts re-reads the issue, its comments and reviews (an event is a cue, not a
// change to apply), so thirty /intervene comments on one job need one run, not thirty, and
// GitHub's pace of about one write a second is spent on jobs that have no run yet.
//
// A burst is the cues for a job whose deliveries are still being triaged: the dispatch waits
// until the last of them is decided, so it covers them all. A cue that arrives while the
// job's dispatch is already being sent starts the next burst (that run may have read GitHub
// before the comment). A job that never stops receiving deliveries is still dispatched once
// its oldest waiting cue is `maxDelayMs` old.

export interface JobCue {
  /** Cancel the job's runs in progress before the dispatch (a /withdraw, a closed issue). */
  cancel: boolean;
  /** Cancels when asked, then dispatches; the newest cue's connection sends the burst's. */
  send(cancel: boolean): Promise<void>;
}

export interface JobCues {
  /** A delivery about the job entered triage: a cue it decides joins the waiting burst. */
  expect(job: string): void;
  /** That delivery's triage ended, cued or not. */
  settle(job: string): void;
  /** Resolves once a dispatch covering this cue was sent; rejects when sending it failed. */
  cue(job: string, cue: JobCue): Promise<void>;
  /** Jobs with deliveries in triage or a burst not yet handed to `enqueue`. */
  waiting(): number;
}

export interface JobCuesOptions {
  /** Queues the burst's send (the server's write queue, at dispatch priority, in its job's turn). */
  enqueue(send: () => Promise<void>, job: string): Promise<void>;
  maxDelayMs: number;
  now(): number;
}

interface Burst {
  since: number;
  cancel: boolean;
  send: JobCue["send"];
  waiters: { resolve(): void; reject(error: unknown): void }[];
}

interface JobState {
  triaging: number;
  burst: Burst | null;
}

export function createJobCues(options: JobCuesOptions): JobCues {
  const jobs = new Map<string, JobState>();
  const stateOf = (job: string): JobState => {
    let state = jobs.get(job);
    if (state === undefined) {
      state = { triaging: 0, burst: null };
      jobs.set(job, state);
    }
    return state;
  };
  const flushIfDue = (job: string, state: JobState): void => {
    const burst = state.burst;
    if (burst !== null) {
      const due = state.triaging === 0 || options.now() - burst.since >= options.maxDelayMs;
      if (!due) return;
      state.burst = null;
      options
        .enqueue(() => burst.send(burst.cancel), job)
        .then(
          () => burst.waiters.forEach((w) => w.resolve()),
          (error: unknown) => burst.waiters.forEach((w) => w.reject(error)),
        );
    }
    if (state.triaging === 0 && state.burst === null) jobs.delete(job);
  };
  return {
    expect(job) {
      stateOf(job).triaging += 1;
    },
    settle(job) {
      const state = jobs.get(job);
      if (state === undefined || state.triaging === 0) {
        throw new Error(`cfa/app: settle(${job}) without a delivery in triage`);
      }
      state.triaging -= 1;
      flushIfDue(job, state);
    },
    cue(job, cue) {
      const state = stateOf(job);
      const burst = (state.burst ??= {
        since: options.now(),
        cancel: false,
        send: cue.send,
        waiters: [],
      });
      burst.cancel ||= cue.cancel;
      burst.send = cue.send;
      const done = new Promise<void>((resolve, reject) => burst.waiters.push({ resolve, reject }));
      flushIfDue(job, state);
      return done;
    },
    waiting: () => jobs.size,
  };
}

// People's commands while turns run (an intervention reaches the current
// lead within one model call, not one turn). Between applied turns the engine reads everything
// people did (ingest.ts); while turns run it looks again at every model-call boundary —
// throttled to `deps.commandPollMs` (default 10 s) — for new comments only, and acts on
// interventions only: an answer, a review or a withdrawal seen mid-turn waits for the next
// applied turn, where it is read with everything else (the cursor is not moved past it) — but a
// withdrawal stops every running turn at its next call, so they end soon.
//
// Why polling and not cancel-and-redispatch (as `/withdraw` does): cancelling the running
// worker stops the turns in flight (every parallel turn, redone from the journal at best) and
// costs a new runner's start-up; a poll costs one conditional request per interval — GitHub
// does not count a 304 against the rate limit when the request is authorized
// (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate)
// — and the local forge reads a file. Nothing here is committed: the next turn's commit takes
// the relayed intervention and the cursor with it, and a crash before that re-reads the
// comment.

import { currentLead } from "../job/instances.js";
import { collectHumanEvents, humanPolicy } from "./human-events.js";
import { relayIntervention } from "../flow/intervene.js";
import { applyChange, type Session } from "../job/session.js";
import { runtimeOf } from "../turn/wake-runtime.js";

/**
 * Ten seconds: real model calls take 10–60 s, so the next call's boundary usually looks
 * anyway, and an intervention waits at most this plus one call (`npm run bench --
 * intervention`). On GitHub a look is one conditional GET per 10 s of turn time, free when
 * it answers 304; only a moved issue costs a read of its comments.
 */
export const DEFAULT_COMMAND_POLL_MS = 10_000;

const inFlight = new WeakMap<Session, Promise<void>>();

export function pollInterventions(s: Session): Promise<void> {
  const running = inFlight.get(s);
  if (running) return running;
  const rt = runtimeOf(s);
  const now = (s.deps.monotonic ?? (() => performance.now()))();
  const interval = s.deps.commandPollMs ?? DEFAULT_COMMAND_POLL_MS;
  if (rt.lastPoll !== null && now - rt.lastPoll < interval) return Promise.resolve();
  rt.lastPoll = now;
  const poll = pollOnce(s).finally(() => inFlight.delete(s));
  inFlight.set(s, poll);
  return poll;
}

async function pollOnce(s: Session): Promise<void> {
  const lead = currentLead(s);
  // Only while the lead's instance exists: sparking it is the round boundary's business.
  if (lead === null || s.soup.stateOf(lead) === null) return;
  let news: Awaited<ReturnType<typeof readNews>>;
  try {
    news = await readNews(s);
  } catch (error) {
    // A look that fails is not the turn's failure: the round boundary reads everything again
    // (and meets an outage there, where it is waited out).
    s.deps.logger.warn(
      `cfa: job #${s.n}: could not look for new commands while turns run; the round's end will: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
    return;
  }
  if (news === null) return;
  const { events, cursor } = news;
  // Anything else among them (a withdrawal, an answer, a review, a refusal) is the round
  // boundary's to apply, in order with the rest: leave the cursor where it is. A withdrawal
  // does not wait for long turns to end, though: every turn stops at its next call.
  const withdrawal = events.find((e) => e.kind === "withdraw");
  if (withdrawal !== undefined) {
    runtimeOf(s).stopping = `withdrawn by ${withdrawal.by}: the turn stops for it`;
    return;
  }
  // A pause stops the wake's turns at their next call, kept to be redone on
  // resume; it is applied, with the rest, once they have stopped (wake.ts).
  const pause = events.find((e) => e.kind === "pause");
  if (pause !== undefined && s.engine.paused === undefined) {
    runtimeOf(s).pause?.(pause.by);
    return;
  }
  if (events.some((e) => e.kind !== "intervene")) return;
  applyChange(s, { type: "people-read", cursor });
  for (const event of events) {
    if (event.kind !== "intervene") continue;
    const current = currentLead(s);
    if (current === null || s.soup.stateOf(current) === null) return;
    await relayIntervention(s, current, event);
  }
}

/** People's events since the cursor, or null when nobody wrote (the cheap answer). */
async function readNews(s: Session) {
  const forge = s.deps.forge;
  // The cheap look first: on GitHub a conditional GET of the issue, free when it answers 304
  // (nothing moved); only news costs a read of the comments. The memo (forge-memo.ts) drops
  // its view when the issue moved, so the listing below is GitHub's, not the memo's.
  if (!(await forge.issueChanged(s.n))) return null;
  const comments = await forge.listComments(s.n);
  const news = comments.some(
    (c) => c.id > s.engine.cursor.comment && c.author.login !== forge.botLogin,
  );
  if (!news) return null;
  return collectHumanEvents(forge, s.n, s.engine, humanPolicy(s.config));
}

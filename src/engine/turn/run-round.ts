// A round of turns: every runnable instance runs its turn in parallel (run-instance-turn.ts),
// then the turns are applied one by one in the round's fixed order (apply-turn.ts) and the
// round's comments posted, so the log is the same whatever order the model calls came back in.

import { addressKey, type Address } from "../../protocol/address.js";
import { isLiveState } from "../../protocol/fsm.js";
import { isModelUnavailable, type ModelUnavailableError } from "../../ports/model.js";
import { isDiskFull } from "../../ports/disk-full.js";
import { ORCHESTRATOR, persist, progress, type Session } from "../job/session.js";
import { runtimeOf } from "../job/wake-runtime.js";
import { enforceJobCaps } from "../flow/enforce-caps.js";
import { postOutbox } from "../publish/outbox.js";
import { applyTurn } from "./apply-turn.js";
import { runInstanceTurn, type InstanceTurn } from "./run-instance-turn.js";

/** The instances that may run now, the orchestrator aside, in the round's fixed order. */
export function runnableInstances(s: Session): Address[] {
  return s.soup
    .runnable()
    .filter((a) => addressKey(a) !== addressKey(ORCHESTRATOR))
    .sort((x, y) => addressKey(x).localeCompare(addressKey(y)));
}

/**
 * Runs a round's turns in parallel (seed 000 §5: instances run without synchronisation) and
 * returns them in the round's fixed order for applying. An instance that becomes runnable
 * while the round runs — a lead woken by an intervention ([wake-int], seed 000 §8) — joins
 * the round at once instead of waiting for the others' turns to end.
 */
export async function runRound(
  s: Session,
  round: Address[],
  signal: AbortSignal | undefined,
): Promise<InstanceTurn[]> {
  progress(s, s.job.state, "ROUND", round.map(addressKey).join(", "), true);
  const rt = runtimeOf(s);
  const started = new Set<string>();
  const pending: Promise<InstanceTurn>[] = [];
  const launch = (a: Address) => {
    const key = addressKey(a);
    if (started.has(key)) return;
    if (!s.soup.runnable().some((r) => addressKey(r) === key)) return;
    started.add(key);
    if (!round.some((r) => addressKey(r) === key)) {
      progress(s, s.job.state, "JOIN", `${key} joins the round in flight`, true);
    }
    pending.push(runInstanceTurn(s, a, signal));
  };
  round.forEach(launch);
  rt.lateJoin = launch;
  const turns: InstanceTurn[] = [];
  try {
    while (turns.length < pending.length) {
      turns.push(...(await Promise.all(pending.slice(turns.length))));
    }
  } finally {
    rt.lateJoin = null;
    rt.stopping = null;
  }
  return turns.sort((x, y) => addressKey(x.a).localeCompare(addressKey(y.a)));
}

/** The model was unavailable to one of the round's turns: that ends the wake (api-wait.ts). */
export function unavailableIn(turns: readonly InstanceTurn[]): ModelUnavailableError | null {
  for (const t of turns) if (isModelUnavailable(t.error)) return t.error;
  return null;
}

/** The round's turn that met a full disk, if any: that pauses the job (job/disk-pause.ts). */
export function diskFullIn(turns: readonly InstanceTurn[]): InstanceTurn | null {
  return turns.find((t) => isDiskFull(t.error)) ?? null;
}

/**
 * Applies a round's turns in its fixed order, checks the caps, posts what the round decided
 * and forgets the journal: every turn of the round is committed with its calls accounted.
 */
export async function applyRound(s: Session, turns: readonly InstanceTurn[]): Promise<void> {
  for (const t of turns) {
    if (!isLiveState(s.job.state)) {
      // The job ended earlier in this round (a withdraw outcome, a failure): the other
      // turns' Runs were consumed by the cascade; nothing of theirs is applied.
      continue;
    }
    if (s.soup.stateOf(t.a) !== "Run") continue;
    await applyTurn(s, t);
  }
  await enforceJobCaps(s);
  await postOutbox(s);
  await persist(s, `cfa #${s.n}: posted`);
  // Every turn of the round is committed with its calls accounted: none can be redone.
  await runtimeOf(s).journal?.clear();
}

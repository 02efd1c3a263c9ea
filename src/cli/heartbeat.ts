// Long waits show progress: a model call can take a minute, and a silent
// terminal looks hung. The model is wrapped to know who is waiting on it; every `everyMs`
// without other output, one line says who and for how long.

import type { Model } from "../ports/model.js";

export interface Heartbeat {
  model: Model;
  /** Something else was printed: the next heartbeat waits a full period again. */
  touch(): void;
  stop(): void;
}

export function withHeartbeat(
  inner: Model,
  say: (text: string) => void,
  options: { everyMs?: number; now?: () => number } = {},
): Heartbeat {
  const everyMs = options.everyMs ?? 15_000;
  const now = options.now ?? (() => Date.now());
  const inFlight = new Map<number, { instance: string; since: number }>();
  let next = 0;
  let quietSince = now();
  const timer = setInterval(
    () => {
      const t = now();
      if (inFlight.size === 0 || t - quietSince < everyMs) return;
      say(waitingMessage([...inFlight.values()], t));
      quietSince = t;
    },
    Math.max(250, Math.floor(everyMs / 4)),
  );
  timer.unref();
  return {
    model: {
      async complete(request, callOptions) {
        const id = next++;
        inFlight.set(id, { instance: request.instance, since: now() });
        try {
          return await inner.complete(request, callOptions);
        } finally {
          inFlight.delete(id);
        }
      },
    },
    touch() {
      quietSince = now();
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** "… waiting on the model for intent-lead@state:intent:1 (45 s)". Pure. */
export function waitingMessage(
  inFlight: readonly { instance: string; since: number }[],
  now: number,
): string {
  const oldest = Math.min(...inFlight.map((w) => w.since));
  const who = [...new Set(inFlight.map((w) => w.instance))].sort();
  const shown =
    who.length > 3 ? `${who.slice(0, 3).join(", ")} and ${who.length - 3} more` : who.join(", ");
  return `… waiting on the model for ${shown} (${Math.round((now - oldest) / 1000)} s)`;
}

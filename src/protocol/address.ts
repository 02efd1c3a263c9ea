// Instances are (agent, thread) pairs (docs/protocol.md#message-soup). A thread is an opaque
// tag to the rules; its naming scheme is a versioned part of the protocol, since every
// participant must agree on it (docs/protocol.md#configuration).

export interface Address {
  readonly agent: string;
  readonly thread: string;
}

export const THREAD_SCHEME_VERSION = 1;

/** `agent@thread`: the key of an instance, its mailbox and its transcript file. */
export function addressKey(address: Address): string {
  return `${address.agent}@${address.thread}`;
}

export function parseAddressKey(key: string): Address {
  const at = key.indexOf("@");
  if (at <= 0 || at === key.length - 1) throw new Error(`cfa/protocol: not an address key: ${key}`);
  return { agent: key.slice(0, at), thread: key.slice(at + 1) };
}

export const sameAddress = (a: Address, b: Address): boolean =>
  a.agent === b.agent && a.thread === b.thread;

/** Thread ids of scheme v1. */
export const threads = {
  /** The job-level thread: the orchestrator's, root of the dispatch tree. */
  job: () => "job",
  /** One thread per entry into a live state; the state's lead runs on it. */
  state: (state: string, entry: number) => `state:${state.toLowerCase()}:${entry}`,
  dispatch: (id: string) => `dispatch:${id}`,
  escalation: (id: string) => `escalation:${id}`,
  verify: (id: string) => `verify:${id}`,
} as const;

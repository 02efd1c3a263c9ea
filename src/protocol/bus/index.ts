// The bus: molecules, the soup and its rules, the durable log, the scheduler.

export * from "./molecules.js";
export * from "./schemas.js";
export * from "./redex.js";
export * from "./rejection.js";
export * from "./effects.js";
export * from "./events.js";
export * from "./errors.js";
export * from "./withdraw-answer.js";
export { Soup, type SoupOptions, type TurnResult, type WakeResult } from "./soup.js";
export type { SoupSnapshot } from "./soup-snapshot.js";
export { DEFAULT_FAN_OUT_CAP, THREAD_KINDS, type ThreadKind } from "./store.js";
export * from "./log.js";
export * from "./prng.js";
export * from "./simulate.js";

// One vocabulary for a task's status wherever a person reads it: the status
// comment's table, its picture, `cfa inspect`. The records keep the engine's own names
// (engine-state.ts TaskMeta.status); people read these. A Map, not an object literal: a
// status named "toString" must not find Object's prototype.

const WORDS = new Map<string, string>([
  ["queued", "queued"],
  ["open", "working"],
  ["merged", "merged"],
  ["conflict", "merge conflict"],
  ["dropped", "dropped"],
]);

/** What a person reads for a task's recorded status; an unknown one as recorded. */
export function taskStatusWords(status: string): string {
  return WORDS.get(status) ?? status;
}

// One thing wrong with a configuration, named by where it is.

export interface ConfigIssue {
  /** Dotted path of the field (`escalation.PLAN`, `commands.worker[2]`); "" for the whole file. */
  path: string;
  /** A sentence that starts with the path (or the source for the whole file). */
  message: string;
}

const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/** `["commands", "worker", 2]` → `commands.worker[2]`; odd keys are quoted. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else {
      const key = String(segment);
      out += PLAIN_KEY.test(key) ? (out === "" ? key : `.${key}`) : `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

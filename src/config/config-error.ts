// The configuration layer's named error: thrown where a process cannot go on with what it
// was given (the environment), carrying every issue so they can be fixed in one pass.

import type { ConfigIssue } from "./config-issue.js";

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(
    /** What was being read: "environment", ".github/cfa.yml". */
    readonly source: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    super(`cfa/config: ${source} is not valid: ${issues.map((issue) => issue.message).join("; ")}`);
  }
}

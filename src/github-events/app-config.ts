// The repository's configuration as the app sees it: the parsed config, or the problems
// with it and the label the file most likely means (to know which issues to tell).

import type { CfaConfig, ConfigIssue } from "../config/index.js";

export type AppConfigLoad =
  | { ok: true; config: CfaConfig }
  | {
      ok: false;
      errors: ConfigIssue[];
      /** The `label` the file sets, when it is a string, else the default `cfa`. */
      label: string;
    };

export const DEFAULT_LABEL = "cfa";

/** The label a (possibly invalid) configuration object names. */
export function labelHint(raw: unknown): string {
  const label = (raw as { label?: unknown } | null)?.label;
  return typeof label === "string" && label.trim() !== "" ? label.trim() : DEFAULT_LABEL;
}

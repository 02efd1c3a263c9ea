// The one comment a bad `.github/cfa.yml` gets: the fields, verbatim and
// inert, and what to do. The app, the worker and the engine all render it here, so whichever
// sees the bad file first, the others find its comment (by digest) and do not post another.

import { formatConfigErrors, type ConfigIssue } from "../config/index.js";
import { withHiddenBlock, type HiddenBlock } from "./hidden-block.js";

export const CONFIG_ERROR_KIND = "config-error";

export interface ConfigErrorComment {
  body: string;
  digest: string;
}

export function configErrorComment(
  job: number,
  errors: readonly ConfigIssue[],
): ConfigErrorComment {
  const list = formatConfigErrors(errors);
  const digest = String(fnv1a(list));
  const body = withHiddenBlock(
    `**This job cannot start: \`.github/cfa.yml\` is not valid.**\n\n${list}\n\nFix the file on the default branch, then comment or re-label the issue.`,
    { v: 1, job, kind: CONFIG_ERROR_KIND, digest },
  );
  return { body, digest };
}

export function isSameConfigError(digest: string) {
  return (block: HiddenBlock): boolean =>
    block.kind === CONFIG_ERROR_KIND && block.digest === digest;
}

/** 32-bit FNV-1a of the rendered list: the same errors give the same digest. */
function fnv1a(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

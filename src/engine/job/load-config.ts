// The repository's `.github/cfa.yml` as a wake reads it: validated, or one comment naming
// what is wrong (posted once: the bot's own earlier comment with the same digest counts).

import { formatConfigErrors, parseConfig, type CfaConfig } from "../../config/index.js";
import { configErrorComment, isSameConfigError } from "../../comments/config-error-comment.js";
import { readHiddenBlock } from "../../comments/hidden-block.js";
import type { EngineDeps } from "./engine-deps.js";

/** A bad `.github/cfa.yml` gets one comment naming the fields, and the job does not run. */
export async function loadConfig(
  n: number,
  deps: EngineDeps,
  given?: CfaConfig,
): Promise<{ ok: true; config: CfaConfig } | { ok: false; note: string }> {
  if (given) return { ok: true, config: given };
  const parsed = parseConfig(await deps.forge.readConfig());
  if (parsed.ok) return { ok: true, config: parsed.config };
  const { body, digest } = configErrorComment(n, parsed.errors);
  const same = isSameConfigError(digest);
  const already = (await deps.forge.listComments(n)).some((c) => {
    if (c.author.login !== deps.forge.botLogin) return false;
    const block = readHiddenBlock(c.body);
    return block !== null && same(block);
  });
  if (!already) await deps.forge.createComment(n, body);
  return { ok: false, note: `.github/cfa.yml is not valid:\n${formatConfigErrors(parsed.errors)}` };
}

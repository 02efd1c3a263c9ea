// Without ANTHROPIC_API_KEY every verb that needs a model says so in one line,
// points at the demo, and changes nothing.

import {
  createProviderModel,
  hasProviderCredentials,
  providerSettings,
  type ProviderModel,
} from "../adapters/providers/provider-model.js";
import type { CfaConfig } from "../config/index.js";
import type { Logger } from "../ports/logger.js";
import type { Model } from "../ports/model.js";
import type { CliIo } from "./cli-io.js";

/** One line: what is missing, and the demo (which needs no key) in the person's own words. */
export function noKeyMessage(cli: string): string {
  return (
    "cfa: ANTHROPIC_API_KEY is not set, so no agent can run (nor are AWS or Google credentials " +
    `for Bedrock or Vertex). Try \`${cli} demo\` to see a recorded job.`
  );
}

/**
 * The model a waking verb uses: the test seam's, or Claude on the provider `.github/cfa.yml`
 * names (the Anthropic API or ANTHROPIC_BASE_URL's gateway, Bedrock, Vertex);
 * null when the environment holds no credentials for any of them.
 */
export function modelFromEnv(io: CliIo, logger: Logger): Model | null {
  if (io.model) return io.model;
  if (!hasProviderCredentials(io.env)) return null;
  return createProviderModel({
    env: io.env,
    logger,
    ...(io.modelPatience !== undefined ? { patience: io.modelPatience } : {}),
  });
}

/**
 * How long a local command waits out an unreachable model API at most: on
 * GitHub a runner waits the configured patience (15 minutes by default) and the sweep tries
 * again; here a person is watching the terminal, so the command stops sooner, says so, and
 * `cfa resume` tries again (the job stays live and keeps every paid response).
 */
export const LOCAL_PATIENCE_MS = 2 * 60_000;

/** How the engine points a provider model at the repository's configuration (else undefined). */
export function configureOf(model: Model): ((config: CfaConfig) => void) | undefined {
  const provider = model as Partial<ProviderModel>;
  if (typeof provider.configure !== "function") return undefined;
  return (config) => {
    const settings = providerSettings(config);
    provider.configure!({
      ...settings,
      patienceMs: Math.min(settings.patienceMs, LOCAL_PATIENCE_MS),
    });
  };
}

// Issue 4 §4: without ANTHROPIC_API_KEY every verb that needs a model says so in one line,
// points at the demo, and changes nothing.

import { createAnthropicModel } from "../adapters/anthropic/index.js";
import type { Logger } from "../ports/logger.js";
import type { Model } from "../ports/model.js";
import type { CliIo } from "./cli-io.js";

export const NO_KEY_MESSAGE =
  "cfa: ANTHROPIC_API_KEY is not set, so no agent can run. Try `npx cfa demo` to see a recorded job.";

/** The model a waking verb uses: the test seam's, or Anthropic's with the key; null without. */
export function modelFromEnv(io: CliIo, logger: Logger): Model | null {
  if (io.model) return io.model;
  const apiKey = io.env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) return null;
  // ANTHROPIC_BASE_URL: the SDK's convention for gateways and local servers (issue 9 §9).
  const baseURL = io.env.ANTHROPIC_BASE_URL?.trim();
  return createAnthropicModel({ apiKey, logger, ...(baseURL ? { baseURL } : {}) });
}

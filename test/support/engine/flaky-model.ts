// A model that fails chosen requests once: the first time instance `key` asks for step `n`
// (its n-th assistant message), `complete()` throws, as an API error that is not an outage
// would. The retry asks for the same step (a failed turn leaves no messages) and gets it.

import type { Model } from "../../../src/ports/model.js";

export interface FlakyModel extends Model {
  /** The `instance#step` requests that failed, in order. */
  readonly failed: string[];
}

export function flakyModel(model: Model, failOnce: readonly string[]): FlakyModel {
  const pending = new Set(failOnce);
  const failed: string[] = [];
  return {
    failed,
    async complete(request, options) {
      const step = request.messages.filter((m) => m.role === "assistant").length;
      const key = `${request.instance}#${step}`;
      if (pending.delete(key)) {
        failed.push(key);
        throw new Error(`test: the API returned 500 for ${key}`);
      }
      return model.complete(request, options);
    },
  };
}

// The model of a verb that runs no agent (withdraw): any call is a fault of the engine, said
// as one, never a request sent anywhere.

import type { Model } from "../ports/model.js";

export class NoModelError extends Error {
  override readonly name = "NoModelError";
  constructor(readonly verb: string) {
    super(`cfa ${verb} runs no agent, yet the job asked for a model call; nothing was sent`);
  }
}

export function noModel(verb: string): Model {
  return {
    complete() {
      return Promise.reject(new NoModelError(verb));
    },
  };
}

// The forge's comments in the shape postOnce reads, so the worker's structured comments are
// found again exactly as the app's are.

import type { CueEffects } from "../github-events/cue-effects.js";
import type { Forge } from "../ports/forge.js";

export function forgeComments(forge: Forge): Pick<CueEffects, "listComments" | "createComment"> {
  return {
    listComments: async (issue) =>
      (await forge.listComments(issue)).map((c) => ({ author: c.author, body: c.body })),
    createComment: async (issue, body) => {
      await forge.createComment(issue, body);
    },
  };
}

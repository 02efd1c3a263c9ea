// Things a test makes that must go after it (a local job, a job on the fake GitHub): the
// returned `make` makes one and it is cleaned up after the test that made it.

import { afterEach } from "vitest";

export function useCleanedUp<Options, Made extends { cleanup(): Promise<void> }>(
  create: (options: Options) => Promise<Made>,
): (options: Options) => Promise<Made> {
  const made: Made[] = [];
  afterEach(async () => {
    for (const thing of made.splice(0)) await thing.cleanup();
  });
  return async (options) => {
    const thing = await create(options);
    made.push(thing);
    return thing;
  };
}

// One sandbox per mode and set of read-only paths, kept for the process: probing bwrap and
// building the system root is done once. The job areas are hidden from every command; the
// repository's `sandbox.readOnlyPaths` arrive with its configuration, which a wake reads before
// its first command. A bubblewrap sandbox is started being made right then, not at that first
// command: probing bwrap and walking the shown toolchains for credential files (a rust install
// alone is ~120,000 entries: ~0.25 s) then overlap the wake's opening git work instead of
// holding up its first command. It is the same sandbox the first command would have made (same
// mode, same paths, made once); a failure is kept for the command that asks, as before.

import { createSandbox, type SandboxMode } from "../adapters/sandbox/index.js";
import type { CfaConfig } from "../config/index.js";
import type { Logger } from "../ports/logger.js";
import type { Sandbox } from "../ports/sandbox.js";
import { processRedactor } from "../secrets/index.js";

export interface Sandboxes {
  sandbox(mode: SandboxMode): Promise<Sandbox>;
  /** Takes the read-only paths of the configuration a wake has read. */
  configure(config: CfaConfig): void;
}

export function sandboxesHiding(
  workRoot: string,
  logger: Logger,
  /** Makes one sandbox; tests count the calls. */
  create: typeof createSandbox = createSandbox,
): Sandboxes {
  const made = new Map<string, Promise<Sandbox>>();
  let readOnlyPaths: readonly string[] = [];
  const sandbox = (mode: SandboxMode): Promise<Sandbox> => {
    const key = [mode, ...readOnlyPaths].join("\0");
    let known = made.get(key);
    if (!known) {
      known = create(mode, {
        hidePaths: [workRoot],
        readOnlyPaths,
        // Mode `off` is refused while the process holds secrets: an unsandboxed command could
        // read them.
        holdsSecrets: () => processRedactor().size > 0,
        warn: (message) => logger.warn(message),
      });
      made.set(key, known);
    }
    return known;
  };
  return {
    sandbox,
    configure(config) {
      readOnlyPaths = config.sandboxReadOnlyPaths;
      // Only `require`: whether mode `off` may be made depends on the secrets the process
      // holds when a command asks, not now. Handled here so that a wake running no command
      // leaves no unhandled rejection; the command that asks still gets the error.
      if (config.sandbox === "require") sandbox("require").catch(() => undefined);
    },
  };
}

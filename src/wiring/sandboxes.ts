// One sandbox per mode and set of read-only paths, made at its first command and kept for the
// process: probing bwrap and building the system root is done once. The job areas are hidden from
// every command; the repository's `sandbox.readOnlyPaths` arrive with its configuration, which a
// wake reads before its first command.

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

export function sandboxesHiding(workRoot: string, logger: Logger): Sandboxes {
  const made = new Map<string, Promise<Sandbox>>();
  let readOnlyPaths: readonly string[] = [];
  return {
    sandbox(mode) {
      const key = [mode, ...readOnlyPaths].join("\0");
      let sandbox = made.get(key);
      if (!sandbox) {
        sandbox = createSandbox(mode, {
          hidePaths: [workRoot],
          readOnlyPaths,
          // Mode `off` is refused while the process holds secrets: an unsandboxed command could
          // read them.
          holdsSecrets: () => processRedactor().size > 0,
          warn: (message) => logger.warn(message),
        });
        made.set(key, sandbox);
      }
      return sandbox;
    },
    configure(config) {
      readOnlyPaths = config.sandboxReadOnlyPaths;
    },
  };
}

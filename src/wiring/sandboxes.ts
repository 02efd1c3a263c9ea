// One sandbox per mode, made at its first command and kept for the process: probing bwrap
// and building the system root is done once. The job areas are hidden from every command.

import { createSandbox, type SandboxMode } from "../adapters/sandbox/index.js";
import type { Logger } from "../ports/logger.js";
import type { Sandbox } from "../ports/sandbox.js";

export function sandboxesHiding(
  workRoot: string,
  logger: Logger,
): (mode: SandboxMode) => Promise<Sandbox> {
  const sandboxes = new Map<SandboxMode, Promise<Sandbox>>();
  return (mode) => {
    let made = sandboxes.get(mode);
    if (!made)
      sandboxes.set(
        mode,
        (made = createSandbox(mode, {
          hidePaths: [workRoot],
          warn: (message) => logger.warn(message),
        })),
      );
    return made;
  };
}

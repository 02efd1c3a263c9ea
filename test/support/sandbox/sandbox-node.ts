// The `node` a sandboxed command can run. npm's scripts run on the `node` dev dependency's
// binary under node_modules/, which the sandbox does not show (its root is /usr, /opt and a
// few /etc files: src/adapters/sandbox/system-root.ts), so a test that runs node inside the
// sandbox takes the first node on PATH that lives in a shown folder.

import { accessSync, constants, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";

const SHOWN = ["/usr/", "/opt/"];

function findSandboxNode(): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, "node");
    try {
      accessSync(candidate, constants.X_OK);
      const real = realpathSync(candidate);
      if (SHOWN.some((prefix) => real.startsWith(prefix))) return real;
    } catch {
      // not here
    }
  }
  return process.execPath;
}

export const SANDBOX_NODE = findSandboxNode();

// What git sent to the fake GitHub's bare repository, ref by ref: a post-receive hook that logs
// each update receive-pack applied — the commit it expected the ref at (git's `<old-oid>`:
// with a lease, the commit the lease names; receive-pack applies the update only if the ref is
// still there, https://git-scm.com/docs/githooks#post-receive), the new commit, the ref — with
// who pushed it: REMOTE_USER, which the HTTP server sets from the request's token
// (git-http-server.ts `userOf`).

import { readFileSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface PushedUpdate {
  /** The token the push carried (REMOTE_USER). */
  token: string;
  old: string;
  new: string;
  ref: string;
}

export const ZERO_OID = "0".repeat(40);

export async function logPushes(bare: string, log: string): Promise<void> {
  await writeFile(log, "");
  const hook = join(bare, "hooks", "post-receive");
  await writeFile(
    hook,
    `#!/bin/sh
while read old new ref; do
  echo "\${REMOTE_USER:-?} $old $new $ref" >> '${log}'
done
`,
  );
  await chmod(hook, 0o755);
}

export function readPushLog(log: string): PushedUpdate[] {
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      const [token = "", old = "", nw = "", ref = ""] = l.split(" ");
      return { token, old, new: nw, ref };
    });
}

// GitHub's file size limit, on a local bare repository standing in for GitHub: a pre-receive
// hook that refuses a push whose new objects hold a blob over 100 MiB, in GitHub's words.
// "About large files on GitHub"
// (https://docs.github.com/en/repositories/working-with-files/managing-large-files/about-large-files-on-github):
// GitHub blocks files larger than 100 MiB; the push is refused as
//   remote: error: GH001: Large files detected. You may want to try Git Large File Storage …
//   remote: error: File big.bin is 101.00 MB; this exceeds GitHub's file size limit of 100.00 MB
//   ! [remote rejected] main -> main (pre-receive hook declined)
// and so is every later push of a branch whose history holds one: the new objects include it
// until the branch's history is rewritten.

import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GITHUB_FILE_LIMIT_BYTES } from "../../../src/git/file-size-limit.js";

const HOOK = `#!/bin/sh
zero=0000000000000000000000000000000000000000
status=0
while read old new ref; do
  [ "$new" = "$zero" ] && continue
  large=$(git rev-list --objects "$new" --not --all |
    git cat-file --batch-check='%(objecttype) %(objectsize) %(rest)' |
    awk '$1 == "blob" && $2 > ${GITHUB_FILE_LIMIT_BYTES} { printf "File %s is %.2f MB; this exceeds GitHub'"'"'s file size limit of 100.00 MB\\n", $3, $2 / 1048576 }')
  if [ -n "$large" ]; then
    echo "error: GH001: Large files detected. You may want to try Git Large File Storage - https://git-lfs.github.com." >&2
    printf '%s\\n' "$large" | sed 's/^/error: /' >&2
    status=1
  fi
done
exit $status
`;

/** Installs GitHub's file size limit as `bare`'s pre-receive hook. */
export function refuseLargeFiles(bare: string): void {
  const path = join(bare, "hooks", "pre-receive");
  writeFileSync(path, HOOK);
  chmodSync(path, 0o755);
}

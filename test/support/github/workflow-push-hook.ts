// GitHub's rule for workflow files, on a local bare repository standing in for GitHub: a
// pre-receive hook that refuses any push whose new commits create, change or delete a file
// under .github/workflows/, in GitHub's words: "refusing to allow a GitHub App to create or
// update workflow `…` without `workflows` permission" (as git prints it, after "remote:").

import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";

const HOOK = `#!/bin/sh
zero=0000000000000000000000000000000000000000
while read old new ref; do
  [ "$new" = "$zero" ] && continue
  if [ "$old" = "$zero" ]; then
    files=$(git log --format= --name-only --no-renames -m --first-parent "$new" --not --branches)
  else
    files=$(git log --format= --name-only --no-renames -m --first-parent "$old..$new")
  fi
  file=$(printf '%s\\n' "$files" | grep -E '^\\.github/workflows/' | head -n 1)
  if [ -n "$file" ]; then
    echo "refusing to allow a GitHub App to create or update workflow \\\`$file\\\` without \\\`workflows\\\` permission" >&2
    exit 1
  fi
done
exit 0
`;

export async function refuseWorkflowPushes(bare: string): Promise<void> {
  const path = join(bare, "hooks", "pre-receive");
  await writeFile(path, HOOK);
  await chmod(path, 0o755);
}

// Git in a task's worktree in the lead's run, committing as the bot at the engine's clock, and
// the one step both the lead's adoption of a done head (fold-at-wake.ts) and its takeover of a
// task (take-over-task.ts) end on: the runs' records leave the tree, so the task's merge never
// brings `.cfa/turns/` into the job branch.

import { commitDateEnv, gitClient, type GitClient } from "../../git/git-client.js";
import type { Workspace } from "../../ports/workspaces.js";
import { TASK_TURNS_DIR } from "../../records/task-turn-record.js";
import type { Reporter } from "../job/session.js";
import { BOT_IDENTITY } from "../tree/job-repo.js";
import { commitStaged } from "./leased-refs.js";

export function taskGit(s: Reporter, ws: Workspace): GitClient {
  return gitClient({
    baseDir: ws.root,
    gitDir: ws.gitDir,
    config: [`user.name=${BOT_IDENTITY.name}`, `user.email=${BOT_IDENTITY.email}`],
    env: () => commitDateEnv(s.deps.clock.now()),
  });
}

/** The task runs' records out of the worktree's tree in one commit, if it held any. */
export async function recordsOut(git: GitClient, message: string): Promise<void> {
  await git.raw(["rm", "-r", "--quiet", "--ignore-unmatch", "--", TASK_TURNS_DIR]);
  // Exit 1: the records were in the tree and are staged out.
  if ((await git.run(["diff", "--cached", "--quiet"])).code === 1)
    await commitStaged((args) => git.raw(args), message);
}

// A command's output with the workspace's host path written relative to it: the worktree is
// shown at its own path in the sandbox, so a stack trace, a compiler error or `pwd` names the
// runner's folders (`/home/runner/.cache/cfa-bot/work/…`) — and what a command prints reaches
// the transcript the engine commits and the setup record it keeps. Relative to the command's
// working directory (`./src/x.js`) it says the same to the agent, and nothing of the runner.

const END = /^(?:$|[/\s'"`:;,()[\]{}<>|])/u;

/** `text` with `root` (the workspace's absolute path) as `.` wherever it is a whole path prefix. */
export function relativeToWorkspace(text: string, root: string): string {
  if (root.length < 2 || !text.includes(root)) return text;
  let out = "";
  let at = 0;
  for (let found = text.indexOf(root); found >= 0; found = text.indexOf(root, at)) {
    const after = found + root.length;
    if (END.test(text.slice(after, after + 1))) {
      out += `${text.slice(at, found)}.`;
    } else out += text.slice(at, after);
    at = after;
  }
  return out + text.slice(at);
}

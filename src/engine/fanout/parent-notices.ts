// What the engine tells a parent of its task, in the parent's mailbox (a `recovery` message):
// the task's merge conflicted, or the task could not start. One form each, so a task run's
// record can name the sub-task such a message was about and the lead check it was said in
// that form (src/engine/fanout/subtree-mail.ts).

/** A task's merge into its parent's branch conflicted and was aborted. */
export function conflictNotice(
  task: string,
  into: string,
  files: readonly string[],
  branch: string,
): string {
  return `Merging task ${task} into ${into} conflicted on: ${files.join(", ")}. The merge was aborted; its branch ${branch} is kept. Dispatch a new task to redo that work on top of ${into} as it is now (it can read the old branch with git), or re-plan.`;
}

/** A dispatched task could not start. */
export function notStartedNotice(task: string, error: string): string {
  return `Task ${task} could not start: ${error}`;
}

const ID = "([a-z0-9][a-z0-9-]{0,39})";
const FORMS = [
  new RegExp(`^Merging task ${ID} into (?:your branch|the job branch) conflicted on: `),
  new RegExp(`^Task ${ID} could not start: `),
];

/** The task a parent notice is about, or null when `text` is no parent notice. */
export function parentNoticeAbout(text: string): string | null {
  for (const form of FORMS) {
    const m = form.exec(text);
    if (m?.[1] !== undefined) return m[1];
  }
  return null;
}

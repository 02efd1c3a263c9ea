// A job's branch is `cfa/<N>` (README, "How a job works"); its task
// branches are `cfa/<N>-<task>`. Reviews and closes arrive on pull requests, which name only
// their head branch: this is how the app finds the job they belong to.

const JOB_BRANCH = /^cfa\/([1-9][0-9]{0,9})$/;

/** The job number of a job branch `cfa/<N>`, or null for any other branch (tasks included). */
export function jobOfBranch(ref: string): number | null {
  const match = JOB_BRANCH.exec(ref);
  return match?.[1] === undefined ? null : Number(match[1]);
}

export function jobBranch(job: number): string {
  return `cfa/${job}`;
}

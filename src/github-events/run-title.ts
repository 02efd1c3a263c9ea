// The title of a worker run for a job. The workflow templates set `run-name` to this, and
// the app finds a job's runs by it (the runs API does not return workflow_dispatch inputs):
// change both together (test/unit/app/templates.test.ts holds them to each other).

export function runTitle(job: number): string {
  return `cfa job #${job}`;
}

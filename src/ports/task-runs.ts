// So that tasks do not share one runner's cores and time limit, the lead's run starts a task
// in its own workflow run and watches it. On
// GitHub this is the Actions REST API (src/adapters/github/task-runs.ts); the simulation
// harness (test/support/sim) has its own, on a virtual clock.

export interface TaskRunInputs {
  job: number;
  task: string;
  epoch: number;
}

export type DispatchResult =
  | { kind: "dispatched"; runId: string }
  /** No `task` job, or no permission to dispatch: the job runs its tasks in the lead's run. */
  | { kind: "unavailable"; reason: string };

/** GitHub's run statuses, folded: anything before completion is `active`. */
export type TaskRunState =
  { status: "active" } | { status: "completed"; conclusion: string | null } | { status: "missing" };

export interface TaskRuns {
  dispatch(inputs: TaskRunInputs): Promise<DispatchResult>;
  state(runId: string): Promise<TaskRunState>;
  cancel(runId: string): Promise<void>;
}

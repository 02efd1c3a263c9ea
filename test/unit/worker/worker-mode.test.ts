import { describe, expect, it } from "vitest";
import { ownWorkflow } from "../../../src/worker/own-workflow.js";
import { resolveWorkerMode, WorkerUsageError } from "../../../src/worker/worker-mode.js";

const files: Record<string, string> = {
  "/dispatch.json": JSON.stringify({ inputs: { job: "12" } }),
  "/dispatch-empty.json": JSON.stringify({ inputs: {} }),
  "/dispatch-task.json": JSON.stringify({ inputs: { job: "7", task: "api", epoch: "2" } }),
  "/comment.json": JSON.stringify({ action: "created", comment: { body: "/withdraw" } }),
  "/broken.json": "{",
};
const readFile = (path: string) => {
  const text = files[path];
  if (text === undefined) throw new Error(`ENOENT: ${path}`);
  return text;
};
const mode = (argv: string[], eventName?: string, eventPath?: string, job?: string) =>
  resolveWorkerMode({ argv, eventName, eventPath, job, readFile });
/** A workflow_dispatch run of job 7 with no event file and the action's `inputs`. */
const dispatched = (inputs: Partial<Parameters<typeof resolveWorkerMode>[0]>) =>
  resolveWorkerMode({
    argv: [],
    eventName: "workflow_dispatch",
    eventPath: undefined,
    job: "7",
    ...inputs,
  });

describe("what a worker run does", () => {
  it("wakes the job named by --job, by the action's input, or by the dispatch event", () => {
    expect(mode(["--job", "7"])).toEqual({ kind: "job", job: 7 });
    expect(mode([], "workflow_dispatch", "/dispatch.json", "9")).toEqual({ kind: "job", job: 9 });
    expect(mode([], "workflow_dispatch", "/dispatch.json")).toEqual({ kind: "job", job: 12 });
  });

  it("sweeps on a schedule or with --sweep, and honours --dry-run", () => {
    expect(mode([], "schedule")).toEqual({ kind: "sweep", dryRun: false });
    expect(mode(["--sweep", "--dry-run"])).toEqual({ kind: "sweep", dryRun: true });
  });

  it("routes the triggering event in Actions-only mode, with its payload", () => {
    expect(mode([], "issue_comment", "/comment.json")).toEqual({
      kind: "route",
      event: "issue_comment",
      payload: { action: "created", comment: { body: "/withdraw" } },
    });
  });

  it("runs one task of a job in a run of its own, from flags, the action's inputs or the dispatch event", () => {
    const task = { kind: "task", job: 7, task: "api", epoch: 2 };
    expect(mode(["--job", "7", "--task", "api", "--epoch", "2"])).toEqual(task);
    expect(dispatched({ eventPath: "/x", task: "api", epoch: "2" })).toEqual(task);
    expect(mode([], "workflow_dispatch", "/dispatch-task.json")).toEqual(task);
    // The inputs' defaults are empty strings: the lead's run, as before.
    expect(dispatched({ task: "", epoch: "", wakeLead: "" })).toEqual({ kind: "job", job: 7 });
  });

  it("only wakes the job's lead for the task job's last step", () => {
    expect(mode(["--job", "7", "--wake-lead"])).toEqual({ kind: "wake-lead", job: 7 });
    expect(dispatched({ task: "api", epoch: "2", wakeLead: "true" })).toEqual({
      kind: "wake-lead",
      job: 7,
    });
  });

  it.each([
    [{ task: "API/../x", epoch: "1" }, /the task must be a task id/],
    [{ task: "api", epoch: "" }, /task api needs its epoch/],
    [{ task: "api", epoch: "0" }, /task api needs its epoch/],
    [{ task: "api", epoch: "1001" }, /task api needs its epoch/],
    [{ task: "api", epoch: "1e3" }, /task api needs its epoch/],
    [{ task: "", epoch: "3" }, /an epoch without a task/],
    [{ wakeLead: "yes" }, /wake-lead is "true" or empty/],
  ])("refuses the task inputs %j with one line saying what was wrong", (inputs, message) => {
    const run = () => dispatched(inputs);
    expect(run).toThrow(WorkerUsageError);
    expect(run).toThrow(message);
  });

  it.each([
    [["--job", "x"], undefined, undefined, /the job must be an issue number, not "x"/],
    [["--task", "api", "--epoch", "1"], undefined, undefined, /need --job/],
    [["--job"], undefined, undefined, /the job must be an issue number/],
    [["--sweep", "--job", "1"], undefined, undefined, /exclude each other/],
    [["--fast"], undefined, undefined, /unknown option --fast/],
    [[], "push", undefined, /cannot tell what to do for a push event/],
    [[], undefined, undefined, /a run outside Actions/],
    [[], "workflow_dispatch", "/dispatch-empty.json", /no `job` input/],
    [[], "issues", undefined, /GITHUB_EVENT_PATH is not set/],
    [[], "issues", "/broken.json", /cannot read the event file/],
  ] as const)(
    "refuses %j (%s) with a message that says what to do",
    (argv, event, path, message) => {
      expect(() => mode([...argv], event, path)).toThrow(WorkerUsageError);
      expect(() => mode([...argv], event, path)).toThrow(message);
    },
  );

  it("finds its own workflow file from GITHUB_WORKFLOW_REF", () => {
    expect(ownWorkflow("octo/repo/.github/workflows/cfa.yml@refs/heads/main")).toBe("cfa.yml");
    expect(ownWorkflow("octo/repo/.github/workflows/agents.yaml@refs/tags/v1")).toBe("agents.yaml");
    expect(ownWorkflow(undefined)).toBeNull();
    expect(ownWorkflow("garbage")).toBeNull();
  });
});

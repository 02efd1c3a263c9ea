// The shipped files agree with the code: the workflow templates' run-name is what the app
// looks runs up by, their concurrency is per job, their permissions are the least each job
// needs, the manifest subscribes to exactly the handled events, the action passes what the
// worker reads, and the configuration sample in the install guide is valid.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { HANDLED_EVENTS } from "../../../src/github-events/handled-events.js";
import { runTitle } from "../../../src/github-events/run-title.js";
import { parseConfig } from "../../../src/config/index.js";

type Job = {
  if?: string;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  permissions?: Record<string, string>;
  steps: { uses?: string; with?: Record<string, string>; run?: string }[];
};
type Workflow = {
  "run-name": string;
  on: Record<string, unknown>;
  permissions: object;
  jobs: Record<string, Job>;
};

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
const workflow = (path: string) => parse(read(path)) as Workflow;
const TEMPLATES = ["templates/workflows/cfa.yml", "templates/workflows/cfa-actions-only.yml"];

describe.each(TEMPLATES)("%s", (path) => {
  const w = workflow(path);

  it("titles a job's runs as the app expects, to find and cancel them", () => {
    expect(runTitle(12)).toBe("cfa job #12");
    expect(w["run-name"]).toContain("format('cfa job #{0}', inputs.job)");
  });

  it("runs one worker per job, never cancelling one in progress", () => {
    expect(w.jobs["work"]?.concurrency).toEqual({
      group: "cfa-${{ inputs.job }}",
      "cancel-in-progress": false,
    });
    expect(w.on).toHaveProperty("workflow_dispatch.inputs.job.required", true);
    expect(w.on).toHaveProperty("schedule");
  });

  it("grants nothing by default and each job only what it needs", () => {
    expect(w.permissions).toEqual({});
    expect(w.jobs["work"]?.permissions).toEqual({
      contents: "write",
      issues: "write",
      "pull-requests": "write",
      checks: "write",
      // A run that stops early (before the runner's time limit) dispatches the job's next run.
      actions: "write",
    });
    expect(w.jobs["sweep"]?.permissions).toEqual({
      contents: "read",
      issues: "read",
      "pull-requests": "read",
      actions: "write",
    });
  });

  it("checks out the whole history without leaving the token in .git/config, and sets up bubblewrap", () => {
    const steps = w.jobs["work"]!.steps;
    expect(steps[0]).toMatchObject({
      uses: "actions/checkout@v7",
      with: { "fetch-depth": 0, "persist-credentials": false },
    });
    expect(steps.map((s) => s.run ?? "").join("\n")).toContain(
      "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0",
    );
    expect(steps.at(-1)).toMatchObject({
      with: { job: "${{ inputs.job }}", "anthropic-api-key": "${{ secrets.ANTHROPIC_API_KEY }}" },
    });
  });
});

describe.each(TEMPLATES)("%s: the task job (a task in a workflow run of its own)", (path) => {
  const w = workflow(path);
  const task = w.jobs["task"]!;
  const inputs = (w.on["workflow_dispatch"] as { inputs: Record<string, Record<string, unknown>> })
    .inputs;

  it("takes job, task and epoch as string inputs, the two new ones optional, within GitHub's 25", () => {
    expect(Object.keys(inputs).sort()).toEqual(["epoch", "job", "task"]);
    expect(Object.keys(inputs).length).toBeLessThanOrEqual(25);
    for (const name of ["task", "epoch"])
      expect(inputs[name]).toMatchObject({ required: false, default: "", type: "string" });
  });

  it("runs for a dispatch naming a task, and the lead's work job only for one that does not", () => {
    expect(task.if).toBe("github.event_name == 'workflow_dispatch' && inputs.task != ''");
    expect(w.jobs["work"]?.if).toBe(
      "github.event_name == 'workflow_dispatch' && inputs.task == ''",
    );
  });

  it("is in a concurrency group per (job, task), never the lead's, and cancels nothing", () => {
    expect(task.concurrency).toEqual({
      group: "cfa-${{ inputs.job }}-task-${{ inputs.task }}",
      "cancel-in-progress": false,
    });
    expect(task.concurrency?.group).not.toBe(w.jobs["work"]?.concurrency?.group);
  });

  it("titles its runs as the lead's, so /withdraw's cancel (runs found by title) reaches them", () => {
    // run-name is the workflow's, whatever job runs; it must not tell a task's run apart.
    expect(w["run-name"]).not.toContain("inputs.task");
    expect(w["run-name"]).toContain(
      "github.event_name == 'workflow_dispatch' && format('cfa job #{0}', inputs.job)",
    );
  });

  it("may write contents (its branch), dispatch (the lead's wake) and read its issue, nothing else", () => {
    expect(task.permissions).toEqual({ contents: "write", actions: "write", issues: "read" });
  });

  it("runs the worker on the task and, whatever happened, wakes the lead last", () => {
    const steps = task.steps as { uses?: string; if?: string; with?: Record<string, string> }[];
    expect(steps[0]).toMatchObject({
      uses: "actions/checkout@v7",
      with: { "fetch-depth": 0, "persist-credentials": false },
    });
    expect(steps.at(-2)).toMatchObject({
      with: {
        job: "${{ inputs.job }}",
        task: "${{ inputs.task }}",
        epoch: "${{ inputs.epoch }}",
        "anthropic-api-key": "${{ secrets.ANTHROPIC_API_KEY }}",
      },
    });
    const last = steps.at(-1)!;
    expect(last.if).toBe("always()");
    expect(last.uses).toBe(steps.at(-2)!.uses);
    // No model key for a step that only dispatches.
    expect(last.with).toEqual({ job: "${{ inputs.job }}", "wake-lead": "true" });
  });
});

describe("the Actions-only template", () => {
  const w = workflow("templates/workflows/cfa-actions-only.yml");

  it("is triggered by the events the app handles, and routes them outside any job's group", () => {
    const events = new Set(HANDLED_EVENTS.map((e) => e.split(".")[0]));
    for (const event of events) expect(w.on).toHaveProperty(event!);
    expect(w.jobs["route"]?.concurrency).toBeUndefined();
    // What the route calls: contents (cfa.yml), issues (👀, comments), actions (dispatch,
    // runs), pull requests (the head of a pull request whose comment says /cfa); the
    // person's permission is metadata, which every token has.
    expect(w.jobs["route"]?.permissions).toEqual({
      contents: "read",
      issues: "write",
      actions: "write",
      "pull-requests": "read",
    });
    // A follow-up's request (docs/protocol.md#jobs-and-states): /cfa on the issue or on the
    // job's pull request starts a route run.
    expect(w.jobs["route"]?.if).toContain("contains(github.event.comment.body, '/cfa')");
    expect(w.jobs["route"]?.if).toContain(
      "github.event_name == 'issue_comment' && github.event.issue.pull_request &&",
    );
    expect(w.jobs["route"]?.if).toContain(
      "github.event.pull_request.head.repo.full_name == github.repository",
    );
  });
});

describe("app.yml", () => {
  const manifest = parse(read("app.yml")) as {
    default_events: string[];
    default_permissions: Record<string, string>;
  };

  it("subscribes to exactly the events the app handles", () => {
    expect([...manifest.default_events].sort()).toEqual(
      [...new Set(HANDLED_EVENTS.map((e) => e.split(".")[0]))].sort(),
    );
  });

  it("asks for what the app itself calls and no more: writes only where it writes", () => {
    expect(manifest.default_permissions).toEqual({
      actions: "write",
      contents: "read",
      issues: "write",
      metadata: "read",
      pull_requests: "read",
    });
  });
});

describe("action.yml", () => {
  const action = parse(read("action.yml")) as {
    runs: { using: string; steps: { env?: Record<string, string>; run: string }[] };
  };

  it("is a composite action running the bundled worker with the variables it reads", () => {
    expect(action.runs.using).toBe("composite");
    const run = action.runs.steps.at(-1)!;
    expect(run.run).toContain('exec node "$worker"');
    expect(run.run).toContain("dist/cfa-worker.mjs");
    expect(Object.keys(run.env ?? {}).sort()).toEqual([
      "ANTHROPIC_API_KEY",
      "APP_ID",
      "CFA_BOT_LOGIN",
      "CFA_EPOCH",
      "CFA_JOB",
      "CFA_TASK",
      "CFA_WAKE_LEAD",
      "GITHUB_TOKEN",
      "PRIVATE_KEY",
    ]);
  });
});

describe("docs/install.md", () => {
  it("shows a .github/cfa.yml that is valid", () => {
    const doc = read("docs/install.md");
    const sample = /## Configuration[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(sample).toBeDefined();
    expect(parseConfig(sample ?? "")).toMatchObject({ ok: true });
  });
});

// What is tested is what ships: CI, the release, the worker templates and the image all run
// one Node major, which package.json's engines allows, with GitHub's current majors of
// checkout and setup-node (v7 of each, 2026: https://github.com/actions/checkout/releases,
// https://github.com/actions/setup-node/releases).
describe("the Node that ships", () => {
  const WORKFLOWS = [...TEMPLATES, ".github/workflows/ci.yml", ".github/workflows/release.yml"];
  const steps = WORKFLOWS.flatMap((path) =>
    Object.values(workflow(path).jobs).flatMap((job) => job.steps.map((step) => ({ path, step }))),
  );
  const image = /^FROM node:(\d+)-/m.exec(read("Dockerfile"))?.[1];

  it("is the image's major in every workflow that sets one up", () => {
    expect(image).toBe("24");
    const setups = steps.filter(({ step }) => step.uses?.startsWith("actions/setup-node@"));
    expect(new Set(setups.map(({ path }) => path))).toEqual(new Set(WORKFLOWS));
    for (const { path, step } of setups) {
      expect(`${path}: ${step.uses} ${String(step.with?.["node-version"])}`).toBe(
        `${path}: actions/setup-node@v7 ${image}`,
      );
    }
  });

  it("checks out with the current checkout", () => {
    const checkouts = steps.filter(({ step }) => step.uses?.startsWith("actions/checkout@"));
    expect(checkouts.length).toBeGreaterThan(0);
    for (const { path, step } of checkouts)
      expect(`${path}: ${step.uses}`).toBe(`${path}: actions/checkout@v7`);
  });

  it("is allowed by engines, whose floor is what the bin and the action check", () => {
    const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines;
    expect(engines.node).toBe(">=22.12");
    expect(read("bin/cfa.js")).toContain("major < 22 || (major === 22 && minor < 12)");
    expect(read("action.yml")).toContain(
      '[ "$major" -lt 22 ] || { [ "$major" -eq 22 ] && [ "$minor" -lt 12 ]; }',
    );
  });
});

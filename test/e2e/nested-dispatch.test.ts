// Tasks that dispatch tasks (docs/protocol.md#dispatch: the tree may grow below any task, as a
// squad lead hands work to implementers and they to verifiers): a three-level tree under the
// EXECUTE lead, each sub-task on its own worktree branched from its parent's branch, verified, and
// merged into its parent's branch when closed; one sub-task fails its first verification and is
// retried; the depth cap refuses a fourth level; a withdraw drops the whole tree unmerged.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { createStrictConversationModel } from "../support/engine/conversation-model.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { wakeToDone } from "../support/engine/drive.js";
import { openJob, say as comment } from "../support/engine/person.js";
import {
  commentsOfKind,
  fileOnBranch,
  foldedBus,
  state,
  taskBranches,
  transcript,
  userTexts,
} from "../support/engine/inspect.js";
import { call, expecting, recording, say, tools } from "../support/engine/script.js";
import { pass, approveGate, proxiedToExecute, summedUp } from "../support/engine/recordings.js";
import { readJobView } from "../../src/cli/job-view.js";
import { renderInspect } from "../../src/cli/inspect-render.js";
import { renderWatch } from "../../src/cli/watch-render.js";
import { readJobRecords } from "../../src/cli/job-records.js";

const NEVER = "escalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: never\n";
const ISSUE = "home.txt says hullo, not hello";
const dispatch = (id: string, brief: string) => call("dispatch", { id, brief, files: [] });
const reply = (text: string) => tools(call("reply", { text }));
/** EXECUTE's lead: dispatches site, closes it once it says it is done, and sums up. */
const leadOfSite = (brief: string, summary: string) => [
  tools(dispatch("site", brief)),
  say("Dispatched the site."),
  expecting(tools(call("close", { task: "site" })), "site done"),
  ...summedUp(summary),
];

/** The recording of a job whose EXECUTE works through site → pages → home. */
function threeLevels() {
  return recording({
    ...proxiedToExecute(),
    "project-lead@state:execute:1": [
      ...leadOfSite(
        "Build the site: site.txt, and its pages through a sub-task",
        "site, pages and home exist.",
      ),
    ],
    "proxy@escalation:q3": approveGate(),
    // Level 1: a squad lead, handing its task's parts to sub-tasks.
    "worker@dispatch:site": [
      tools(call("write_file", { path: "site.txt", content: "site\n" })),
      tools(dispatch("pages", "Write pages.txt, and have the home page written by a sub-task")),
      say("Waiting for pages."),
      expecting(tools(call("close", { task: "pages" })), "pages done"),
      reply("site done: site.txt, pages.txt and home.txt"),
      say("done"),
    ],
    // Level 2.
    "worker@dispatch:pages": [
      tools(call("write_file", { path: "pages.txt", content: "pages\n" })),
      tools(dispatch("home", "Write home.txt saying hello")),
      say("Waiting for home."),
      expecting(tools(call("close", { task: "home" })), "home written"),
      expecting(say("Waiting for the fix."), "the verifier failed task home"),
      expecting(tools(call("close", { task: "home" })), "fixed"),
      reply("pages done"),
      say("done"),
    ],
    // Level 3: the deepest the default depth cap allows; a fourth level is refused.
    "worker@dispatch:home": [
      tools(dispatch("deeper", "Write deeper.txt")),
      expecting(tools(call("write_file", { path: "home.txt", content: "hullo\n" })), "at most 3"),
      reply("home written"),
      say("done"),
      expecting(tools(call("write_file", { path: "home.txt", content: "hello\n" })), ISSUE),
      reply("fixed"),
      say("done"),
    ],
    "verifier@verify:home-1": [
      tools(call("verdict", { verdict: "fail", issues: [ISSUE], notes: "" })),
    ],
    "verifier@verify:home-2": pass(),
    "verifier@verify:pages-1": pass(),
    "verifier@verify:site-1": pass(),
  });
}

type Tasks = Record<string, { status: string; parent?: string; verifyFailures: number }>;

describe("nested dispatch", () => {
  const newJob = useLocalJobs();

  it("a three-level tree: each sub-task branches from its parent's branch, is verified, merges into its parent; a failed sub-task is retried", async () => {
    const model = createStrictConversationModel(threeLevels());
    const job = await newJob({ config: NEVER, model });
    await wakeToDone(job, model);

    // Everything arrived on the job branch, through the tree.
    expect(fileOnBranch(job, "site.txt")).toBe("site");
    expect(fileOnBranch(job, "pages.txt")).toBe("pages");
    expect(fileOnBranch(job, "home.txt")).toBe("hello");
    expect(fileOnBranch(job, "deeper.txt")).toBeNull();
    expect(taskBranches(job)).toEqual([]);

    const tasks = state(job).engine.tasks as Tasks;
    expect(Object.keys(tasks).sort()).toEqual(["home", "pages", "site"]);
    expect(tasks.site).toMatchObject({ status: "merged", verifyFailures: 0 });
    expect(tasks.site!.parent).toBeUndefined();
    expect(tasks.pages).toMatchObject({ status: "merged", parent: "site" });
    expect(tasks.home).toMatchObject({ status: "merged", parent: "pages", verifyFailures: 1 });

    // Merges follow the tree: home into pages' branch, pages into site's, site into cfa/1.
    const merges = git(job.repoDir, "log", "--merges", "--format=%s", "cfa/1").split("\n");
    expect(merges).toEqual(
      expect.arrayContaining([
        "cfa #1: merge task home",
        "cfa #1: merge task pages",
        "cfa #1: merge task site",
      ]),
    );
    const firstParents = git(
      job.repoDir,
      "log",
      "--first-parent",
      "--merges",
      "--format=%s",
      "cfa/1",
    );
    expect(firstParents.split("\n")).toEqual(["cfa #1: merge task site"]);

    // The failed verdict went back to home's worker, from pages (its parent), not the lead.
    expect(userTexts(transcript(job, "worker@dispatch:home")).join("\n")).toContain(
      `The verifier failed your task:\n- ${ISSUE}`,
    );
    // The fourth level was refused by the depth cap, in the tool result.
    expect(userTexts(transcript(job, "worker@dispatch:home")).join("\n")).toMatch(
      /sub-tasks nest at most 3 levels below the lead; this would be level 4/,
    );
    const verdicts = foldedBus(job).folded.audit.filter((e) => e.type === "verdict");
    expect(verdicts.map((v) => [v.task, v.verdict])).toEqual([
      ["home", "fail"],
      ["home", "pass"],
      ["pages", "pass"],
      ["site", "pass"],
    ]);

    // The dispatch tree is in the bus: each spark's parent is the dispatching thread.
    const sparks = foldedBus(job)
      .text.split("\n")
      .filter((l) => l.includes('"type":"spark"') && l.includes("dispatch:"))
      .map((l) => JSON.parse(l) as { parent: string; to: { thread: string } });
    expect(sparks.map((e) => [e.to.thread, e.parent])).toEqual([
      ["dispatch:site", "state:execute:1"],
      ["dispatch:pages", "dispatch:site"],
      ["dispatch:home", "dispatch:pages"],
    ]);

    // `cfa inspect` and `cfa watch` show the tree.
    const records = await readJobRecords(job.repoDir, 1);
    if (records === null) throw new Error("test: no records");
    const view = readJobView(records);
    const inspect = renderInspect(view, { resolveModel: (m) => m, price: () => 0 }).join("\n");
    expect(inspect).toMatch(
      /task site — merged[^\n]*\n(?:[│ ]+[├└]── [^\n]*\n)*[│ ]+[├└]── task pages — merged/,
    );
    expect(inspect).toMatch(
      /task pages — merged[^\n]*\n(?:[│ ]+[├└]── [^\n]*\n)*[│ ]+[├└]── task home — merged/,
    );
    // The status comment's dispatch tree (Mermaid): site under the lead, pages under site,
    // home under pages. Node ids are generated, so they are looked up by label.
    const [status] = await commentsOfKind(job, "status");
    const body = status!.body;
    const node = (label: string) => {
      const id = new RegExp(`(t\\d+)\\["${label}`).exec(body)?.[1];
      if (id === undefined) throw new Error(`test: no node for ${label} in the status comment`);
      return id;
    };
    expect(body).toContain(`lead --> ${node("site: merged")}\n`);
    expect(body).toContain(`${node("site: merged")} --> ${node("pages: merged")}\n`);
    expect(body).toContain(`${node("pages: merged")} --> ${node("home: merged, verifier pass")}\n`);
    const watch = renderWatch(view).map((l) => `${l.event} ${l.detail}`);
    expect(watch).toContainEqual(expect.stringMatching(/^DISPATCH task pages under task site: /));
    expect(watch).toContainEqual(expect.stringMatching(/^DISPATCH task home under task pages: /));
    expect(watch).toContain("MERGED task home into cfa/1-pages");
    expect(watch).toContain("MERGED task pages into cfa/1-site");
    expect(watch).toContain("MERGED task site into cfa/1");
  });

  it("a task closed with its sub-task still open: the sub-task is verified and merged into it first, then it is verified again and merged", async () => {
    const model = createStrictConversationModel(
      recording({
        ...proxiedToExecute(),
        "project-lead@state:execute:1": [...leadOfSite("Build the site", "site and pages exist.")],
        "proxy@escalation:q3": approveGate(),
        "worker@dispatch:site": [
          tools(call("write_file", { path: "site.txt", content: "site\n" })),
          tools(dispatch("pages", "Write pages.txt")),
          say("Waiting for pages."),
          // pages replied; site reports up without closing it.
          expecting(reply("site done (pages still open)"), "pages done"),
          say("done"),
        ],
        "worker@dispatch:pages": [
          tools(call("write_file", { path: "pages.txt", content: "pages\n" })),
          reply("pages done"),
          say("done"),
        ],
        // site as it was at the close; then pages, at its merge; then site with pages in it.
        "verifier@verify:site-1": pass(),
        "verifier@verify:pages-1": pass(),
        "verifier@verify:site-2": pass(),
      }),
    );
    const job = await newJob({ config: NEVER, model });
    await wakeToDone(job, model);
    expect(fileOnBranch(job, "site.txt")).toBe("site");
    expect(fileOnBranch(job, "pages.txt")).toBe("pages");
    const tasks = state(job).engine.tasks as Tasks;
    expect(tasks.pages).toMatchObject({ status: "merged", parent: "site" });
    expect(tasks.site).toMatchObject({ status: "merged" });
    const merges = git(job.repoDir, "log", "--merges", "--format=%s", "cfa/1").split("\n");
    expect(merges.indexOf("cfa #1: merge task pages")).toBeGreaterThan(
      merges.indexOf("cfa #1: merge task site"),
    );
  });

  it("a withdraw drops the whole tree unmerged: every level's branch and worktree go", async () => {
    const model = createStrictConversationModel(
      recording({
        ...proxiedToExecute(),
        "project-lead@state:execute:1": [tools(dispatch("site", "site")), say("Dispatched.")],
        "worker@dispatch:site": [
          tools(call("write_file", { path: "site.txt", content: "site\n" })),
          tools(dispatch("pages", "pages")),
          say("Waiting."),
        ],
        "worker@dispatch:pages": [
          tools(call("write_file", { path: "pages.txt", content: "pages\n" })),
          tools(dispatch("home", "home")),
          say("Waiting."),
        ],
        "worker@dispatch:home": [
          tools(call("write_file", { path: "home.txt", content: "home\n" })),
          tools(call("ask_question", { kind: "question", text: "hello or hullo?" })),
        ],
        "proxy@escalation:q3": [tools(call("escalate", { question: "Ana: hello or hullo?" }))],
      }),
    );
    const job = await newJob({
      config: "escalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: when_unsure\n",
      model,
    });
    // The home worker's question goes to the person (EXECUTE: when_unsure → escalate).
    await openJob(job);
    const running = await wake(1, job.deps);
    expect(running.state).toBe("EXECUTE");
    expect(taskBranches(job).sort()).toEqual(["cfa/1-home", "cfa/1-pages", "cfa/1-site"]);
    const before = git(job.repoDir, "rev-parse", "cfa/1");

    await comment(job, "/withdraw not needed");
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("WITHDRAWN");
    expect(model.errors).toEqual([]);
    expect(taskBranches(job)).toEqual([]);
    expect(git(job.repoDir, "worktree", "list")).not.toContain("task-");
    const tasks = state(job).engine.tasks as Tasks;
    expect(Object.values(tasks).map((t) => t.status)).toEqual(["dropped", "dropped", "dropped"]);
    // Nothing of the tree reached the job branch.
    for (const f of ["site.txt", "pages.txt", "home.txt"]) expect(fileOnBranch(job, f)).toBeNull();
    expect(git(job.repoDir, "log", "--merges", "--format=%s", `${before}..cfa/1`)).toBe("");
    // Children were released before their parents (the cascade, docs/protocol.md#withdrawal).
    const drops = foldedBus(job)
      .text.split("\n")
      .filter((l) => /"type":"term-(idle|ask|run)"/.test(l))
      .map((l) => (JSON.parse(l) as { a: { thread: string } }).a.thread)
      .filter((t) => t.startsWith("dispatch:"));
    expect(drops).toEqual(["dispatch:home", "dispatch:pages", "dispatch:site"]);
  });
});

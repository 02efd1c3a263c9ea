// The TurnHost (src/engine/turn/host.ts): every protocol tool call of a turn is checked
// against the soup, the state machine and the job's tasks, and either refused with a reason
// the agent can act on or queued for the turn's Send. Given the records, when an agent calls
// a tool, then the host's answer and the turn's decisions — without git or a model.

import { describe, expect, it } from "vitest";
import { loadRole } from "../../../../src/agents/roles/index.js";
import { applyChange, append } from "../../../../src/engine/job/session.js";
import { readText, writeText } from "../../../../src/engine/tree/files.js";
import {
  createHost,
  emptyDecisions,
  type TaskVerdict,
  type TurnDecisions,
} from "../../../../src/engine/turn/host.js";
import type { Address } from "../../../../src/protocol/address.js";
import { threads } from "../../../../src/protocol/address.js";
import type { Action } from "../../../../src/protocol/fsm.js";
import { OUTCOME_PATH } from "../../../../src/records/job-paths.js";
import { withLead } from "../../../support/engine/memory-session.js";

const EXECUTE: Action[] = ["APPROVED_INTENT", "APPROVED_PLAN"];

/** The state's lead, sparked and at work, and a host for its turn. */
async function leadTurn(
  options: { config?: string; walk?: Action[]; verify?: (task: string) => TaskVerdict } = {},
) {
  const session = await withLead({
    walk: options.walk ?? EXECUTE,
    ...(options.config === undefined ? {} : { config: options.config }),
  });
  const { s, lead } = session;
  const decisions = emptyDecisions();
  const host = createHost(s, lead, loadRole(lead.agent as "project-lead"), s.jobWs, decisions, {
    ...(options.verify ? { verify: async (task: string) => options.verify!(task) } : {}),
  });
  return { ...session, decisions, host };
}

/** Task `id` dispatched by `lead` in an earlier turn: sparked on the bus and recorded open. */
async function openTask(
  session: Awaited<ReturnType<typeof leadTurn>>,
  id: string,
  verifyFailures = 0,
) {
  const { s, lead } = session;
  const to: Address = { agent: "worker", thread: threads.dispatch(id) };
  const ended = s.soup.endTurn(lead, {
    rule: "send-step",
    payloads: [{ kind: "deliver", to, content: { kind: "task", text: `do ${id}` } }],
  });
  await append(s, ended.events);
  applyChange(s, {
    type: "task-recorded",
    id,
    meta: {
      thread: to.thread,
      branch: s.paths.taskBranch(id),
      dir: `task-${id}`,
      base: "0".repeat(40),
      brief: `do ${id}`,
      status: "open",
      verifyFailures,
    },
  });
  // The lead's next turn, on a message that arrived meanwhile.
  await append(s, s.soup.interrupt(lead.thread, { kind: "observe", text: "next turn" }).events);
  await append(s, s.soup.wake(lead).events);
}

const refusal = (result: { ok: boolean; error?: string; text?: string }) =>
  result.ok ? null : result.error;

describe("dispatch", () => {
  it("queues the task's spark for the end of the turn, on a branch named for it", async () => {
    const { host, decisions } = await leadTurn();
    const result = await host.dispatch({ id: "hello", brief: "Write hello.txt", files: [] });
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.text).toContain("starts when your turn ends, on branch cfa/1-hello");
    expect(decisions.pending).toEqual([
      {
        kind: "deliver",
        to: { agent: "worker", thread: "dispatch:hello" },
        content: { kind: "task", text: "Write hello.txt" },
      },
    ]);
  });

  it("refuses a bad id, an id dispatched twice in one turn, and an id that already ran", async () => {
    const session = await leadTurn();
    const { host, s } = session;
    expect(refusal(await host.dispatch({ id: "Hello World", brief: "x", files: [] }))).toMatch(
      /lowercase letters, digits and dashes/,
    );
    await host.dispatch({ id: "a", brief: "x", files: [] });
    expect(refusal(await host.dispatch({ id: "a", brief: "x", files: [] }))).toMatch(
      /already dispatched in this turn/,
    );
    await openTask(session, "b");
    applyChange(s, { type: "task-status-set", id: "b", status: "merged" });
    expect(refusal(await host.dispatch({ id: "b", brief: "x", files: [] }))).toMatch(
      /task b already ran \(merged\)/,
    );
  });

  it("past the fan-out cap the task is queued and the agent told it waits for a slot", async () => {
    const { host, decisions } = await leadTurn({ config: "fanOut: 1\n" });
    await host.dispatch({ id: "a", brief: "x", files: [] });
    const second = await host.dispatch({ id: "b", brief: "y", files: ["notes.md"] });
    expect(second.ok && second.text).toMatch(/Task b is queued: you already have 1 tasks open/);
    expect(decisions.pending).toHaveLength(2);
    expect(decisions.pending[1]).toMatchObject({
      content: { kind: "task", text: "y", data: { files: ["notes.md"] } },
    });
  });

  it("a task's worker may not dispatch below dispatchDepth", async () => {
    const session = await leadTurn({ config: "dispatchDepth: 1\n" });
    const { s } = session;
    await openTask(session, "api");
    const worker: Address = { agent: "worker", thread: threads.dispatch("api") };
    s.soup.wake(worker);
    const host = createHost(s, worker, loadRole("worker"), s.jobWs, emptyDecisions());
    expect(refusal(await host.dispatch({ id: "sub", brief: "x", files: [] }))).toMatch(
      /sub-tasks nest at most 1 levels below the lead; this would be level 2/,
    );
  });
});

describe("close", () => {
  it("a task the verifier passes is terminated at the end of the turn", async () => {
    const session = await leadTurn({ verify: () => ({ verdict: "pass", issues: [], notes: "" }) });
    await openTask(session, "hello");
    const result = await session.host.close("hello");
    expect(result.ok && result.text).toMatch(/passed task hello; it is merged into your branch/);
    expect(session.decisions.pending).toEqual([{ kind: "terminate", thread: "dispatch:hello" }]);
  });

  it("a task the verifier fails goes back to its worker with the issues, up to the retry budget", async () => {
    const fail = () => ({ verdict: "fail" as const, issues: ["no newline"], notes: "" });
    const session = await leadTurn({ config: "retryBudget: 2\n", verify: fail });
    // Its failures so far, this one counted: the budget's last.
    await openTask(session, "hello", 2);
    expect(refusal(await session.host.close("hello"))).toMatch(/issues go back to its worker/);
    expect(session.decisions.pending).toEqual([
      {
        kind: "deliver",
        to: { agent: "worker", thread: "dispatch:hello" },
        content: {
          kind: "verdict",
          text: "The verifier failed your task:\n- no newline\nFix these and reply again.",
        },
      },
    ]);
  });

  it("past the budget the task will not be merged and nothing is sent", async () => {
    const fail = () => ({ verdict: "fail" as const, issues: ["still wrong"], notes: "" });
    const session = await leadTurn({ config: "retryBudget: 2\n", verify: fail });
    await openTask(session, "hello", 3);
    expect(refusal(await session.host.close("hello"))).toMatch(
      /failed task hello 3 times \(budget 2\); it will not be merged/,
    );
    expect(session.decisions.pending).toEqual([]);
  });

  it("refuses an unknown task, a queued one, a closed one, and any close without a verifier", async () => {
    const session = await leadTurn();
    const { host, s } = session;
    expect(refusal(await host.close("nope"))).toBe("there is no task nope");
    await openTask(session, "a");
    expect(refusal(await host.close("a"))).toBe("this turn cannot close tasks");
    applyChange(s, { type: "task-status-set", id: "a", status: "queued" });
    expect(refusal(await host.close("a"))).toMatch(/has not started/);
    applyChange(s, { type: "task-status-set", id: "a", status: "dropped" });
    expect(refusal(await host.close("a"))).toBe("task a is already dropped");
  });
});

describe("ask (a gate)", () => {
  it("puts the phase's artifact to review once it is written and no task of the lead's is open", async () => {
    const session = await leadTurn({ walk: [] });
    const { host, s, decisions } = session;
    const artifact = s.paths.artifact("INTENT.md");
    expect(refusal(await host.ask({ kind: "gate", text: "Review?" }))).toMatch(
      /INTENT.md is missing or empty: write it before asking for review/,
    );
    await writeText(s.jobWs.root, artifact, "# Intent\n");
    expect(
      refusal(await host.ask({ kind: "gate", text: "Review?", artifact: ".cfa/jobs/1/PLAN.md" })),
    ).toBe(`the artifact under review in INTENT is ${artifact}`);
    const asked = await host.ask({ kind: "gate", text: "Review?" });
    expect(asked.ok).toBe(true);
    expect(decisions.ask).toEqual({ question: { kind: "gate", text: "Review?", artifact } });
  });

  it("is refused while a task of the lead is open, and to anyone but the phase's lead", async () => {
    const session = await leadTurn();
    const { host, s } = session;
    await writeText(s.jobWs.root, s.paths.artifact("WORK_SUMMARY.md"), "# Work\n");
    await openTask(session, "hello");
    expect(refusal(await host.ask({ kind: "gate", text: "Done?" }))).toBe(
      "close or abandon your open tasks first: hello",
    );
    const worker: Address = { agent: "worker", thread: threads.dispatch("hello") };
    s.soup.wake(worker);
    const workerHost = createHost(s, worker, loadRole("worker"), s.jobWs, emptyDecisions());
    expect(refusal(await workerHost.ask({ kind: "gate", text: "Done?" }))).toBe(
      "only the phase's lead asks for a gate review",
    );
  });
});

describe("finish", () => {
  it("records a permitted outcome in outcome.json and the turn's decisions", async () => {
    const { host, s, decisions } = await leadTurn({ walk: ["APPROVED_INTENT"] });
    const record = { outcome: "REALIGN" as const, reason: "the intent missed a case" };
    expect(await host.finish(record)).toMatchObject({ ok: true });
    expect(decisions.finished).toEqual(record);
    expect(JSON.parse((await readText(s.jobWs.root, OUTCOME_PATH))!)).toEqual(record);
  });

  it("refuses an outcome the state does not permit, naming those it does", async () => {
    const { host, decisions } = await leadTurn({ walk: [] });
    expect(refusal(await host.finish({ outcome: "APPROVED_WORK", reason: "x" }))).toBe(
      "APPROVED_WORK is not permitted in INTENT (permitted: APPROVED_INTENT, WITHDRAW)",
    );
    expect(decisions.finished).toBeNull();
  });
});

describe("the proxy's tools", () => {
  it("escalating is refused when the state's policy is never; answering and withdrawing are recorded", async () => {
    const { s } = await leadTurn({ walk: [] });
    const proxy: Address = { agent: "proxy", thread: "escalation:q1" };
    const decisions: TurnDecisions = emptyDecisions();
    const host = createHost(s, proxy, loadRole("proxy"), s.jobWs, decisions, {
      policyAllowsEscalate: false,
    });
    expect(refusal(await host.proxyEscalate("Which greeting?"))).toMatch(/policy .* is `never`/);
    expect(decisions.proxy).toBeNull();
    await host.proxyAnswer("Hello");
    expect(decisions.proxy).toEqual({ kind: "answer", text: "Hello" });
    await host.proxyWithdraw("no longer wanted");
    expect(decisions.proxy).toEqual({ kind: "withdraw", reason: "no longer wanted" });
  });
});

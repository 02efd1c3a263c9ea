// The lead's fold of a task's own run at its wakes, over real git and the real soup: each wake
// reads the task branch as fetched, folds the turns it has not folded, and delivers each to the bus
// as the worker's own turn on the message waiting for it; a turn is folded once however often the
// branch is read, and the task's last turn names the commit the lead verifies before a merge.

import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { foldTaskRuns } from "../../../../src/engine/fanout/fold-task-runs.js";
import { gitClient } from "../../../../src/git/git-client.js";
import { addressKey } from "../../../../src/protocol/address.js";
import { Soup } from "../../../../src/protocol/bus/index.js";
import { initialEngineState, type EngineState } from "../../../../src/records/engine-state.js";
import { taskTurnPath, type TaskTurnRecord } from "../../../../src/records/task-turn-record.js";
import { makeTempRepo, type TempRepo } from "../../../support/git/temp-repo.js";
import { ORCH, msg } from "../../../support/protocol/bus-world.js";

const WORKER = { agent: "worker", thread: "dispatch:api" };

describe("the lead's fold of a task run, wake after wake", () => {
  let repo: TempRepo;
  let soup: Soup;
  let engine: EngineState;
  const run = (args: readonly string[]) => gitClient(repo.repo).raw(args);

  /** The task run pushed turn `seq`; the lead's run fetched it. */
  const pushed = (seq: number, over: Partial<TaskTurnRecord> = {}) => {
    repo.git("checkout", "--quiet", "cfa/7-api");
    repo.write(`api-${seq}.ts`, `export const turn = ${seq};\n`);
    const code = repo.commitAll(`api turn ${seq}`);
    const record: TaskTurnRecord = {
      v: 1,
      job: 7,
      task: "api",
      epoch: 1,
      seq,
      run: "901",
      calls: 1,
      costUsd: 0.25,
      ended: true,
      sends: [{ to: addressKey(ORCH), kind: "reply", text: `turn ${seq}` }],
      done: false,
      head: code,
      ...over,
    };
    repo.write(taskTurnPath(seq, 1), JSON.stringify(record));
    repo.commitAll(`api turn ${seq} ended`);
    repo.git("checkout", "--quiet", "main");
    return code;
  };

  beforeEach(() => {
    repo = makeTempRepo({ prefix: "cfa-fold-runs-" });
    repo.git("branch", "cfa/7-api");
    soup = new Soup();
    soup.root(ORCH, msg("start"));
    soup.wake(ORCH);
    soup.endTurn(ORCH, {
      rule: "send-step",
      payloads: [{ kind: "deliver", to: WORKER, content: { kind: "task", text: "Build it" } }],
    });
    engine = {
      ...initialEngineState("ana"),
      tasks: {
        api: {
          thread: WORKER.thread,
          branch: "cfa/7-api",
          dir: join("tasks", "api"),
          base: repo.git("rev-parse", "main"),
          brief: "Build it",
          status: "open",
          verifyFailures: 0,
        },
      },
      fanout: {
        tasks: {
          api: {
            epoch: 1,
            folded: 0,
            charged: {},
            allowanceUsd: 5,
            callUsd: 0.25,
            runId: "901",
            deaths: 0,
            refused: [],
          },
        },
      },
    };
  });
  afterEach(() => repo.cleanup());

  const wake = async () => {
    const [fold] = await foldTaskRuns(run, 7, engine, soup);
    engine = { ...engine, fanout: { tasks: { api: fold!.ledger } } };
    return fold!;
  };

  it("folds each turn once, as the worker's own on the bus, and names the done turn's commit", async () => {
    pushed(1);
    const first = await wake();
    expect(first.events.length).toBeGreaterThan(0);
    expect(first.chargedUsd).toBe(0.25);
    expect(soup.mailbox(ORCH)).toEqual([expect.objectContaining({ text: "turn 1", from: WORKER })]);
    expect(first.doneAt).toBeNull();

    // The lead read it and answered; the task run's next turn took that answer.
    soup.wake(ORCH);
    soup.endTurn(ORCH, {
      rule: "send-step",
      payloads: [{ kind: "deliver", to: WORKER, content: { kind: "reply", text: "go on" } }],
    });
    const code = pushed(2, {
      done: true,
      sends: [{ to: addressKey(ORCH), kind: "reply", text: "done" }],
    });
    const second = await wake();
    expect(second.chargedUsd).toBe(0.25);
    expect(second.doneAt).toBe(code);
    expect(soup.mailbox(ORCH).map((m) => m.text)).toEqual(["done"]);

    // The next wake reads the same branch: nothing folds, nothing is charged or said again.
    const third = await wake();
    expect(third).toMatchObject({ events: [], chargedUsd: 0, say: [], doneAt: null });
  });

  it("a task the lead runs itself, or one already merged, is not read", async () => {
    pushed(1);
    engine = { ...engine, tasks: { api: { ...engine.tasks["api"]!, status: "merged" } } };
    expect(await foldTaskRuns(run, 7, engine, soup)).toEqual([]);
    engine = {
      ...engine,
      tasks: { api: { ...engine.tasks["api"]!, status: "open" } },
      fanout: { tasks: {} },
    };
    expect(await foldTaskRuns(run, 7, engine, soup)).toEqual([]);
  });

  it("a question takes the next escalation id the lead gives, once; a refused one takes none", async () => {
    let next = 3;
    const ids = {
      peek: () => `q${next}`,
      take: () => {
        next += 1;
      },
      policy: "always" as const,
    };
    const askWake = async () => {
      const [fold] = await foldTaskRuns(run, 7, engine, soup, ids);
      engine = { ...engine, fanout: { tasks: { api: fold!.ledger } } };
      return fold!;
    };
    pushed(1, {
      sends: [{ to: "worker@dispatch:db", kind: "ask", text: "sibling?" }],
    });
    const refused = await askWake();
    expect(refused.say).toEqual([{ what: "e1/1", why: "routing" }]);
    expect(refused.asked).toEqual([]);
    expect(next).toBe(3);

    pushed(2, {
      sends: [{ to: addressKey(ORCH), kind: "ask", text: "REST or gRPC?", toolUseId: "toolu_1" }],
    });
    const asked = await askWake();
    expect(asked.asked).toEqual([
      { id: "q3", caller: "worker@dispatch:api", text: "REST or gRPC?", toolUseId: "toolu_1" },
    ]);
    expect(soup.pendingEscalations().map((m) => m.id)).toEqual(["q3"]);
    expect(next).toBe(4);
    // Read again: folded once, no second id.
    expect(await askWake()).toMatchObject({ events: [], asked: [] });
    expect(next).toBe(4);
  });
});

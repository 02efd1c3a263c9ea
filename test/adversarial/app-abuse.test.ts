// The webhook server under abuse (slow, oversized, flooded and outsider input), as `npm start` runs
// it (startServer) on 127.0.0.1, reaching the fake GitHub over HTTP (GHE_HOST). Every loop is
// bounded in count and time. Each class has a positive control: the same attack against the same
// server with that defence switched off, showing the attack works there (so the test would catch
// the defence's loss).
//
// Timeouts are shortened here (the defaults, http-limits.ts: headers 5 s, request 10 s);
// what is tested is that they exist and are enforced, not their size.

import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { StartOptions, StartedServer } from "../../src/app/start-server.js";
import { readHiddenBlock } from "../../src/comments/hidden-block.js";
import {
  isWrite,
  startFakeGitHubServer,
  type FakeGitHubOptions,
  type FakeGitHubServer,
} from "../support/github/fake-github-server.js";
import { examplePayload } from "../support/github/index.js";
import { startAppServer } from "../support/github/app-server.js";
import { sendDelivery } from "../support/github/signed-delivery.js";
import { cases } from "../support/adversarial/count.js";

const SECRET = "cfa-app-abuse-secret";
const SHORT = {
  headersTimeoutMs: 600,
  requestTimeoutMs: 1_200,
  keepAliveTimeoutMs: 500,
  checkIntervalMs: 100,
};
/** Node's own defaults (node:http): the server as it was before these defences. */
const NODE_DEFAULTS = {
  headersTimeoutMs: 60_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 30_000,
};

const servers: { started: StartedServer; github: FakeGitHubServer }[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const started of restarted.splice(0)) await started.close();
  for (const { started, github } of servers.splice(0)) {
    await started.close();
    await github.stop();
  }
});

const serverFor = (github: FakeGitHubServer, options: StartOptions = {}) =>
  startAppServer(github, SECRET, options);

async function boot(options: StartOptions = {}, fake: FakeGitHubOptions = {}) {
  const github = await startFakeGitHubServer(fake);
  const { started, url } = await serverFor(github, options);
  servers.push({ started, github });
  return { started, github, url };
}

/** The same app restarted: a new process's memory (no dedupe), the same GitHub. */
async function restart(github: FakeGitHubServer) {
  const { started, url } = await serverFor(github);
  restarted.push(started);
  return { started, url };
}
const restarted: StartedServer[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(10);
  }
  return true;
}

/** A raw connection that records what the server answers and when it closes. */
function rawConnection(port: number) {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  const state = { answer: "", closed: false };
  socket.on("data", (chunk: Buffer) => (state.answer += chunk.toString("latin1")));
  socket.on("close", () => (state.closed = true));
  socket.on("error", () => (state.closed = true));
  const opened = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return { socket, state, opened };
}

/**
 * `count` connections to `port`, each sent `opening(i)` and then dripped a `drip` now and
 * then, as a slowloris does, for a bounded 2.5 s.
 */
async function slowloris(
  port: number,
  count: number,
  opening: (i: number) => string,
  drip: string,
): Promise<ReturnType<typeof rawConnection>[]> {
  const conns = Array.from({ length: count }, () => rawConnection(port));
  await Promise.all(conns.map((c) => c.opened));
  conns.forEach((c, i) => c.socket.write(opening(i)));
  for (let i = 0; i < 5; i += 1) {
    await sleep(500);
    for (const c of conns) if (!c.state.closed) c.socket.write(drip);
  }
  return conns;
}

/** Every one of `conns` closed within 3 s, each answered 408 (Request Timeout) first. */
async function expectAllTimedOut(conns: ReturnType<typeof rawConnection>[]): Promise<void> {
  expect(await until(() => conns.every((c) => c.state.closed), 3_000)).toBe(true);
  expect(conns.filter((c) => c.state.answer.startsWith("HTTP/1.1 408"))).toHaveLength(conns.length);
}

const headerLines = (
  name: string,
  id: string,
  length: number | "chunked",
  signature = "sha256=00",
) =>
  [
    "POST /api/github/webhooks HTTP/1.1",
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `X-GitHub-Event: ${name}`,
    `X-GitHub-Delivery: ${id}`,
    `X-Hub-Signature-256: ${signature}`,
    length === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${length}`,
    "",
    "",
  ].join("\r\n");

const comment = (installation: number, job: number, id: number, body: string, login = "wes") => ({
  id: `d-${installation}-${job}-${id}`,
  name: "issue_comment",
  payload: examplePayload("issue_comment", "created", {
    installation: { id: installation },
    issue: { number: job, labels: [{ name: "cfa" }], state: "open" },
    comment: { id, body, user: { login, type: "User" } },
    sender: { login, type: "User" },
  }),
});

const dispatches = (github: FakeGitHubServer) =>
  github.calls
    .filter((c) => c.operationId === "actions/create-workflow-dispatch")
    .map((c) => Number((c.body as { inputs: { job: string } }).inputs.job));

const SLOW_HEADERS = 20;
describe(
  cases("slow headers: connections that never finish their headers", SLOW_HEADERS, "connections"),
  () => {
    // One header line, then a byte now and then: the connection holds a parser and a socket.
    const attack = (port: number) =>
      slowloris(port, SLOW_HEADERS, () => "POST /api/github/webhooks HTTP/1.1\r\nHost: x\r\n", "X");

    it("every one is answered 408 and closed within headersTimeout", async () => {
      const { started } = await boot({ http: SHORT });
      const conns = await attack(started.port);
      await expectAllTimedOut(conns);
    });

    it("positive control: with Node's defaults every one is still open", async () => {
      const { started } = await boot({ http: NODE_DEFAULTS });
      const conns = await attack(started.port);
      expect(conns.filter((c) => c.state.closed)).toHaveLength(0);
    });
  },
);

const SLOW_BODIES = 20;
describe(
  cases(
    "slow and unfinished bodies: headers whole, the body never ends",
    SLOW_BODIES,
    "connections",
  ),
  () => {
    // Whole headers promising 100 kB, then a space of body now and then.
    const attack = (port: number) =>
      slowloris(
        port,
        SLOW_BODIES,
        (i) => headerLines("issue_comment", `slow-${i}`, 100_000) + "{",
        " ",
      );

    it("every one is answered 408 and closed within requestTimeout", async () => {
      const { started } = await boot({ http: SHORT });
      const conns = await attack(started.port);
      await expectAllTimedOut(conns);
      expect(started.bodies.bodies()).toBe(0);
      expect(started.bodies.heldBytes()).toBe(0);
    });

    it("positive control: with Node's defaults every one is still open, its body held", async () => {
      const { started } = await boot({ http: NODE_DEFAULTS });
      const conns = await attack(started.port);
      expect(conns.filter((c) => c.state.closed)).toHaveLength(0);
      expect(started.bodies.bodies()).toBe(SLOW_BODIES);
    });
  },
);

const HOLDERS = 24;
const HELD = 1024 * 1024;
const BUDGET = { maxBytes: 4 * 1024 * 1024, maxBodies: 256 };
describe(
  cases(
    "unfinished bodies held at once: memory before the signature is checked",
    HOLDERS,
    `connections × ${HELD} bytes`,
  ),
  () => {
    const attack = async (port: number, url: string) => {
      const conns = Array.from({ length: HOLDERS }, () => rawConnection(port));
      await Promise.all(conns.map((c) => c.opened));
      const filler = Buffer.alloc(64 * 1024, 0x20);
      for (const [i, c] of conns.entries()) {
        c.socket.write(headerLines("issue_comment", `hold-${i}`, HELD + 1) + "{");
        for (let sent = 0; sent + filler.length <= HELD - 1; sent += filler.length) {
          c.socket.write(filler);
        }
      }
      // A real delivery arrives while they hold their bodies.
      const legit = await sendDelivery(url, SECRET, comment(50, 7, 1, "/intervene please"));
      return { conns, legit };
    };

    it("what all of them hold stays within the budget, the oldest are cut, and a real delivery is taken", async () => {
      const { started, url } = await boot({ http: SHORT, bodies: { budget: BUDGET } });
      let peak = 0;
      const watch = setInterval(() => (peak = Math.max(peak, started.bodies.heldBytes())), 1);
      try {
        const { conns, legit } = await attack(started.port, url);
        await until(() => started.bodies.evicted() >= HOLDERS - BUDGET.maxBytes / HELD, 3_000);
        expect(legit.status).toBe(202);
        expect(peak).toBeLessThanOrEqual(BUDGET.maxBytes + 64 * 1024);
        expect(started.bodies.evicted()).toBeGreaterThanOrEqual(HOLDERS - BUDGET.maxBytes / HELD);
        // The evicted are cut at once: their connections close, unanswered.
        const cut = () => conns.filter((c) => c.state.closed && c.state.answer === "").length;
        await until(() => cut() >= started.bodies.evicted(), 2_000);
        expect(cut()).toBeGreaterThanOrEqual(started.bodies.evicted());
      } finally {
        clearInterval(watch);
      }
    });

    it("positive control: without a budget they hold all of it at once", async () => {
      const { started, url } = await boot({
        http: NODE_DEFAULTS,
        bodies: { budget: { maxBytes: 1e12, maxBodies: 1e6 } },
      });
      await attack(started.port, url);
      expect(
        await until(() => started.bodies.heldBytes() >= HOLDERS * (HELD - 64 * 1024), 5_000),
      ).toBe(true);
      expect(started.bodies.evicted()).toBe(0);
    });
  },
);

const OVERSIZED = 6 * 1024 * 1024;
const DECLARED = 5;
const UNDECLARED = 5;
describe(
  cases("oversized bodies, declared and undeclared", DECLARED + UNDECLARED, "requests"),
  () => {
    const declared = async (port: number, i: number) => {
      const c = rawConnection(port);
      await c.opened;
      // Only the headers are sent: a refusal must not wait for the body.
      c.socket.write(headerLines("issue_comment", `big-${i}`, OVERSIZED));
      await until(() => c.state.closed || c.state.answer.includes("\r\n\r\n"), 3_000);
      return c.state.answer;
    };
    const undeclared = async (port: number, i: number) => {
      const c = rawConnection(port);
      await c.opened;
      c.socket.write(headerLines("issue_comment", `chunked-${i}`, "chunked"));
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      for (let sent = 0; sent < OVERSIZED && !c.state.closed; sent += chunk.length) {
        c.socket.write(`${chunk.length.toString(16)}\r\n`);
        c.socket.write(chunk);
        c.socket.write("\r\n");
        await sleep(1);
      }
      if (!c.state.closed) c.socket.write("0\r\n\r\n");
      await until(() => c.state.closed || c.state.answer.includes("\r\n\r\n"), 3_000);
      return c.state.answer;
    };

    it("each is refused 413, a declared one before any of its body is read", async () => {
      const { started } = await boot({ http: SHORT });
      for (let i = 0; i < DECLARED; i += 1) {
        expect(await declared(started.port, i)).toMatch(/^HTTP\/1\.1 413/);
      }
      for (let i = 0; i < UNDECLARED; i += 1) {
        expect(await undeclared(started.port, i)).toMatch(/^HTTP\/1\.1 413/);
      }
      expect(started.bodies.heldBytes()).toBe(0);
    });

    it("positive control: with the limit raised, the same bodies are read whole (then fail the signature)", async () => {
      const { started } = await boot({ http: SHORT, bodies: { maxBodyBytes: 100 * 1024 * 1024 } });
      for (let i = 0; i < UNDECLARED; i += 1) {
        expect(await undeclared(started.port, i)).toMatch(/^HTTP\/1\.1 400/);
      }
    });
  },
);

const FLOOD = 300;
describe(
  cases(
    "a flood of signed deliveries from one installation against another's",
    FLOOD,
    "deliveries",
  ),
  () => {
    const attack = async (fairness: "installation" | "none", flooder: number, other: number) => {
      // GitHub answers each call in 5 ms; writes pass one at a time per installation.
      const { github, url } = await boot(
        {
          http: SHORT,
          queue: { fairness, maxWaiting: 200, minShare: 20, maxWaitingPerSource: 150 },
        },
        { latencyMs: 5 },
      );
      const release = github.hold(isWrite);
      const flood = await Promise.all(
        Array.from({ length: FLOOD }, (_, i) =>
          sendDelivery(url, SECRET, comment(flooder, 1000 + i, 5000 + i, "/intervene more")),
        ),
      );
      const legit = await sendDelivery(url, SECRET, comment(other, 7, 42, "/intervene please"));
      release();
      if (legit.status === 202) await until(() => dispatches(github).includes(7), 10_000);
      const order = dispatches(github);
      return { flood, legit, position: order.indexOf(7) };
    };

    it("the other installation's delivery is taken (202) and its job dispatched among the first; only the flooder gets 503", async () => {
      const { flood, legit, position } = await attack("installation", 101, 102);
      expect(legit.status).toBe(202);
      expect(position).toBeGreaterThanOrEqual(0);
      // The flooder's writes go on while the other delivery is triaged (three reads), so a
      // few of its dispatches may go first; never the backlog.
      expect(position).toBeLessThanOrEqual(10);
      expect(flood.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    });

    it("positive control: as one queue (no fairness), the flood refuses it (503) or puts it behind itself", async () => {
      const { legit, position } = await attack("none", 111, 112);
      expect(legit.status === 503 || position > 50).toBe(true);
    });
  },
);

const OUTSIDER_COMMANDS = 12;
describe(
  cases(
    "an outsider's commands: no run, one reply each",
    OUTSIDER_COMMANDS,
    "comments, each delivered twice",
  ),
  () => {
    // An installation of its own per test: Probot keeps installation clients (and the host
    // they reach) beyond one server's life, and each test has its own fake GitHub.
    let installation = 300;
    const withdraws = (login: string, from = (installation += 1)) =>
      Array.from({ length: OUTSIDER_COMMANDS }, (_, i) =>
        comment(from, 7, 700 + i, `/withdraw ${i}`, login),
      );

    it("a read-only outsider's /withdraw comments start no workflow run and get exactly one reply each, across redeliveries and a restart", async () => {
      const first = await boot();
      first.github.permissions.set("mallory", "read");
      const comments = withdraws("mallory");
      for (const d of comments) await sendDelivery(first.url, SECRET, d);
      // GitHub redelivers each (same delivery id) to the same server…
      for (const d of comments) await sendDelivery(first.url, SECRET, d);
      await first.started.queue.onIdle();
      // …and, after a restart (no memory of deliveries), again as new ones.
      const second = await restart(first.github);
      for (const d of comments) {
        await sendDelivery(second.url, SECRET, { ...d, id: `${d.id}-again` });
      }
      await second.started.queue.onIdle();

      const gh = first.github;
      expect(dispatches(gh)).toEqual([]);
      expect(gh.calls.filter((c) => c.operationId === "actions/list-workflow-runs")).toEqual([]);
      expect(gh.calls.filter((c) => c.operationId?.startsWith("reactions/"))).toEqual([]);
      const replies = gh.comments.get("7") ?? [];
      expect(replies).toHaveLength(OUTSIDER_COMMANDS);
      expect(replies.map((r) => readHiddenBlock(r.body)?.comment).sort()).toEqual(
        Array.from({ length: OUTSIDER_COMMANDS }, (_, i) => 700 + i),
      );
      for (const reply of replies)
        expect(reply.body).toContain("you have read. Nothing was changed.");
    });

    it("positive control: the same comments from someone with write access do start runs", async () => {
      const { started, github, url } = await boot();
      for (const d of withdraws("wes")) await sendDelivery(url, SECRET, d);
      await started.queue.onIdle();
      expect(dispatches(github).length).toBeGreaterThan(0);
      expect(github.comments.get("7") ?? []).toHaveLength(0);
    });

    it("positive control: where the app's earlier replies cannot be found, a restart would answer again", async () => {
      const { started, github, url } = await boot({}, { hideComments: true });
      github.permissions.set("mallory", "read");
      const [d] = withdraws("mallory");
      await sendDelivery(url, SECRET, d!);
      await started.queue.onIdle();
      const second = await restart(github);
      await sendDelivery(second.url, SECRET, { ...d!, id: `${d!.id}-again` });
      await second.started.queue.onIdle();
      expect(github.comments.get("7") ?? []).toHaveLength(2);
    });
  },
);

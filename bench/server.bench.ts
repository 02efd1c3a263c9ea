// The webhook server under a burst: the REAL server, started with `npm start`
// (dist/app/server.js, Probot's Octokit with its throttling and retries), reaches a fake
// GitHub over HTTP through GHE_HOST; the fake answers every call in 300 ms. 90 signed
// deliveries arrive at once: 60 jobs' /withdraw and 30 /intervene on one job.
//
// Reported: the time to GitHub's answer (p50, p99, max; GitHub allows 10 s), against the
// same server's answer to one delivery at a time (the floor, measured first); the time
// until every cued job was dispatched, against the floor GitHub's pace sets (Probot spaces
// content writes one second apart: N dispatches take at least N - 1 s); and how many
// dispatches the 30 cues on one job made (the target is at most 3).
//
// Then abuse: a flood of FLOOD signed deliveries from one installation (50
// connections at a time), then one legitimate delivery from another: the flood's p50/p99
// answer, its 503s, and the time from the legitimate delivery to its job's dispatch against
// the floor GitHub's pace sets (one write a second: 1 s). And HOLDERS, then twice as many,
// unsigned connections each holding 4.9 MB of an unfinished body: the server's resident
// memory before and at its peak. The budget keeps 32 MiB of bodies; what the evicted sent
// before they were cut is garbage for the collector, so the growth is some tens of MiB
// more, and does not double with the connections (unbounded: HOLDERS × 4.9 MB).
//
//   npm run bench -- server

import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { examplePayload, testPrivateKey } from "../test/support/github/index.js";
import {
  startFakeGitHubServer,
  type FakeGitHubServer,
} from "../test/support/github/fake-github-server.js";
import {
  freePort,
  postDelivery,
  sendDelivery,
  signDelivery,
} from "../test/support/github/signed-delivery.js";
import { median, type BenchResult } from "./bench-result.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SECRET = "cfa-bench-webhook-secret";
const LATENCY_MS = 300;
const WITHDRAWN_JOBS = 60;
const BUSY_JOB = 1000;
const BUSY_CUES = 30;
const SETTLE_MS = 5_000;
const GIVE_UP_MS = 240_000;
const FLOOD = 1_000;
const FLOOD_CONNECTIONS = 50;
const FLOODER = 9001;
const OTHER = 9002;
const HOLDERS = 120;
const HELD_BYTES = 4.9 * 1024 * 1024;

export async function run(): Promise<BenchResult[]> {
  buildIfStale();
  const github = await startFakeGitHubServer({ latencyMs: LATENCY_MS });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/api/github/webhooks`;
  const server = spawn("npm", ["start", "--silent"], {
    cwd: ROOT,
    detached: true,
    stdio: "ignore",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      APP_ID: "123456",
      PRIVATE_KEY: testPrivateKey(),
      WEBHOOK_SECRET: SECRET,
      HOST: "127.0.0.1",
      PORT: String(port),
      GHE_HOST: github.host,
      GHE_PROTOCOL: "http",
      // As in the Docker image (NODE_ENV=production): JSON logs, not pretty-printed.
      LOG_FORMAT: "json",
    },
  });
  try {
    await waitForPing(port);
    // Warm: the installation token, the JIT. Then the floor: one delivery at a time, each
    // a comment that is not a command (screened without an API call).
    await sendDelivery(url, SECRET, comment(BUSY_JOB + 1, 1, "/intervene warm up"));
    await until(() => dispatchedJobs(github).has(BUSY_JOB + 1), 30_000);
    const floor: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      floor.push((await sendDelivery(url, SECRET, comment(BUSY_JOB, 10 + i, "thanks"))).ms);
    }
    const before = github.calls.length;

    const burst = [
      ...Array.from({ length: WITHDRAWN_JOBS }, (_, i) => comment(i + 1, 100 + i, "/withdraw")),
      ...Array.from({ length: BUSY_CUES }, (_, i) =>
        comment(BUSY_JOB, 500 + i, `/intervene step ${i}`),
      ),
    ];
    const signed = burst.map((d) => signDelivery(SECRET, d));
    const serverPid = serverProcess(server.pid);
    const cpuBefore = cpuMs(serverPid);
    const started = performance.now();
    const answers = await Promise.all(signed.map((d) => postDelivery(url, d)));
    // The server's CPU time while answering (and starting the triage): on a core of its
    // own, the last answer would come about this long after the first request.
    const answerCpu = cpuMs(serverPid) - cpuBefore;
    const cued = new Set([...Array.from({ length: WITHDRAWN_JOBS }, (_, i) => i + 1), BUSY_JOB]);
    const allDispatched = await until(
      () => [...cued].every((job) => dispatchedJobs(github, before).has(job)),
      GIVE_UP_MS,
    );
    const lastDispatch = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

    const acks = answers.map((a) => a.ms).sort((a, b) => a - b);
    const p = (q: number) => acks[Math.min(acks.length - 1, Math.ceil(q * acks.length) - 1)]!;
    const busy = dispatchesOf(github, before).filter((job) => job === BUSY_JOB).length;
    const dispatched = [...cued].filter((job) => dispatchedJobs(github, before).has(job)).length;
    const writesFloorS = cued.size - 1;
    const invalid = github.calls.filter((c) => c.invalid !== undefined).length;
    const abuse = await floodAndHold(github, url, port, serverPid);
    return [
      ...abuse,
      {
        name: `server: answer to ${burst.length} concurrent signed deliveries (p50)`,
        unit: "ms",
        median: p(0.5),
        runs: burst.length,
        extra: {
          p99: p(0.99),
          max: acks.at(-1)!,
          floor: median(floor),
          p99_vs_floor: p(0.99) / median(floor),
          non2xx: answers.filter((a) => a.status < 200 || a.status > 299).length,
          server_cpu_ms: answerCpu,
          // The machine's load while measuring: answers wait for a CPU like anything else.
          load1: loadavg()[0]!,
        },
      },
      {
        name: `server: every cued job dispatched (${cued.size} jobs, GitHub ${LATENCY_MS} ms/call)`,
        unit: "s",
        median: lastDispatch / 1000,
        runs: 1,
        extra: {
          dispatched: `${dispatched}/${cued.size}${allDispatched ? "" : " (gave up)"}`,
          floor_s: writesFloorS,
          vs_floor: lastDispatch / 1000 / writesFloorS,
          invalid_calls: invalid,
        },
      },
      {
        name: `server: dispatches for ${BUSY_CUES} cues on one job`,
        unit: "dispatches",
        median: busy,
        runs: 1,
        extra: { limit: 3, total_dispatches: dispatchesOf(github, before).length },
      },
    ];
  } finally {
    if (server.pid !== undefined) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
    await github.stop();
  }
}

async function floodAndHold(
  github: FakeGitHubServer,
  url: string,
  port: number,
  serverPid: number,
): Promise<BenchResult[]> {
  const before = github.calls.length;
  const flood = Array.from({ length: FLOOD }, (_, i) =>
    signDelivery(SECRET, comment(5000 + i, 90_000 + i, "/intervene more", FLOODER)),
  );
  const acks: { status: number; ms: number }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: FLOOD_CONNECTIONS }, async () => {
      while (next < flood.length) acks.push(await postDelivery(url, flood[next++]!));
    }),
  );
  const sent = performance.now();
  // A comment id of its own: the app dedupes by comment id, and id 1 was the warm-up's.
  const legit = await sendDelivery(
    url,
    SECRET,
    comment(7777, 99_999_999, "/intervene please", OTHER),
  );
  const reached = await until(() => dispatchedJobs(github, before).has(7777), GIVE_UP_MS);
  const legitS = (performance.now() - sent) / 1000;
  const times = acks.map((a) => a.ms).sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!;

  // Unfinished unsigned bodies, held open while the server's memory is read; twice, with
  // twice the connections the second time: bounded means the growth does not double.
  const rss = () =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${serverPid}/status`, "utf8"))![1]) * 1024;
  const hold = async (holders: number): Promise<{ before: number; peak: number }> => {
    const before = rss();
    let peak = before;
    const sockets: Socket[] = [];
    const filler = Buffer.alloc(64 * 1024, 0x20);
    for (let i = 0; i < holders; i += 1) {
      const socket = connect(port, "127.0.0.1");
      socket.on("error", () => undefined);
      sockets.push(socket);
      socket.write(
        `POST /api/github/webhooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-GitHub-Event: issue_comment\r\nX-GitHub-Delivery: hold-${holders}-${i}\r\nX-Hub-Signature-256: sha256=00\r\nContent-Length: ${Math.ceil(HELD_BYTES) + 1}\r\n\r\n`,
      );
      for (let sent = 0; sent + filler.length <= HELD_BYTES; sent += filler.length) {
        socket.write(filler);
      }
      peak = Math.max(peak, rss());
    }
    for (let i = 0; i < 30; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      peak = Math.max(peak, rss());
    }
    for (const socket of sockets) socket.destroy();
    // Let the server close them and collect what they left.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return { before, peak };
  };
  const once = await hold(HOLDERS);
  const twice = await hold(2 * HOLDERS);
  const mib = (n: number) => n / 1024 / 1024;
  return [
    {
      name: `server: answer to a flood of ${FLOOD} signed deliveries from one installation (p50)`,
      unit: "ms",
      median: q(0.5),
      runs: FLOOD,
      extra: {
        p99: q(0.99),
        refused_503: acks.filter((a) => a.status === 503).length,
        other_2xx: acks.filter((a) => a.status >= 200 && a.status < 300).length,
      },
    },
    {
      name: "server: another installation's delivery after the flood, until its job is dispatched",
      unit: "s",
      median: legitS,
      runs: 1,
      extra: {
        answer: legit.status,
        dispatched: reached ? "yes" : "gave up",
        floor_s: 1,
        vs_floor: legitS / 1,
      },
    },
    ...[
      [HOLDERS, once],
      [2 * HOLDERS, twice],
    ].map(([holders, m]) => {
      const { before, peak } = m as { before: number; peak: number };
      return {
        name: `server: resident memory growth under ${holders as number} unfinished unsigned bodies of 4.9 MB`,
        unit: "MiB",
        median: mib(peak - before),
        runs: 1,
        extra: {
          before_mib: mib(before),
          peak_mib: mib(peak),
          budget_mib: 32,
          unbounded_would_hold_mib: mib((holders as number) * HELD_BYTES),
        },
      };
    }),
  ];
}

/** The node process `npm start` started (npm runs it through sh). */
function serverProcess(npmPid: number | undefined): number {
  const children = (pid: number): number[] =>
    readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter((p) => p !== "")
      .map(Number);
  const queue = npmPid === undefined ? [] : [npmPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    // Not npm (nor a `sh -c` between them, before the script's `exec`): node itself.
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (/(^|\/)node$/.test(argv[0] ?? "") && argv[1] === "dist/app/server.js") return pid;
    queue.push(...children(pid));
  }
  throw new Error("cfa/bench: cannot find the server process under npm start");
}

/** User and system CPU time of a process, in ms (Linux /proc, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function comment(job: number, id: number, body: string, installation?: number) {
  return {
    id: `bench-${job}-${id}`,
    name: "issue_comment",
    payload: examplePayload("issue_comment", "created", {
      ...(installation === undefined ? {} : { installation: { id: installation } }),
      issue: { number: job, labels: [{ name: "cfa" }], state: "open" },
      comment: { id, body, user: { login: "wes", type: "User" } },
      sender: { login: "wes", type: "User" },
    }),
  };
}

function dispatchesOf(github: FakeGitHubServer, from = 0): number[] {
  return github.calls
    .slice(from)
    .filter((c) => c.operationId === "actions/create-workflow-dispatch")
    .map((c) => Number((c.body as { inputs: { job: string } }).inputs.job));
}

function dispatchedJobs(github: FakeGitHubServer, from = 0): Set<number> {
  return new Set(dispatchesOf(github, from));
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

async function waitForPing(port: number): Promise<void> {
  const ok = await (async () => {
    for (let i = 0; i < 300; i += 1) {
      const pong = await fetch(`http://127.0.0.1:${port}/ping`)
        .then((r) => r.text())
        .catch(() => "");
      if (pong === "PONG") return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  })();
  if (!ok) throw new Error("cfa/bench: `npm start` did not answer /ping within 30 s");
}

/** The bench runs what `npm start` runs: dist/, rebuilt when a source is newer. */
function buildIfStale(): void {
  const built = join(ROOT, "dist/app/server.js");
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((e) =>
        e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
      ),
    );
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(ROOT, "src"))) return;
  console.error("cfa/bench: dist/ is older than src/: npm run build");
  const result = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error("cfa/bench: npm run build failed");
}

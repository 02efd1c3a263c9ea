// Where the engine's git processes are started. Starting a process from Node
// costs the starting process time that grows with its own memory: libuv forks it (copying
// its page tables) before exec. Measured with Node 24 on a 2-core machine, one
// `spawn("git", ["--version"])` held the calling thread 2.1 ms at 54 MB resident and 5.7 ms
// at 600 MB; a profiled bench job (`npm run bench -- engine`) spent 1.7 s of its main
// thread inside `spawn` for 237 git processes — most of its per-turn overhead.
//
// So the git commands are started by a small helper process instead: a bare `node` (no
// loader, no application code, an empty environment), forked once, that spawns each command
// exactly as asked — the same file, arguments, working directory and environment, built by
// the hardened runner (git-client.ts) — and sends back its exit code, stdout and stderr. Its
// fork is cheap (it is small), and it happens off the engine's thread. Until the helper says
// it is ready, and whenever it is gone, commands are spawned here as before: the helper only
// changes who calls `spawn`, never what runs. A command in flight when the helper dies is
// failed, not run again (it may have run). The helper holds no reference to the event loop
// while idle, and exits when its parent does (its IPC channel closes).
//
// Every command is published on the `cfa-bot:git` diagnostics channel before it starts
// (https://nodejs.org/api/diagnostics_channel.html): the bench counts git processes there.

import { spawn, type ChildProcess } from "node:child_process";
import { channel } from "node:diagnostics_channel";
import type { GitResult } from "./git-result.js";

/** Published with `{ args }` for each git process the engine starts. */
export const gitStarted = channel("cfa-bot:git");

export interface SpawnRequest {
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  input?: string | Buffer;
}

/**
 * The helper's whole program, run with `node -e` (CommonJS). It answers each message
 * `{ id, args, cwd, env, input }` with `{ id, code, error, stdout, stderr }`, `error` set
 * when git could not be started at all.
 */
const HELPER = `
"use strict";
const { spawn } = require("node:child_process");
process.on("disconnect", () => process.exit(0));
process.on("message", (m) => {
  let answered = false;
  const answer = (reply) => {
    if (answered) return;
    answered = true;
    process.send({ id: m.id, ...reply });
  };
  let child;
  try {
    child = spawn("git", m.args, {
      cwd: m.cwd,
      env: m.env,
      stdio: [m.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
  } catch (error) {
    answer({ code: null, error: String(error && error.message), stdout: Buffer.alloc(0), stderr: "" });
    return;
  }
  const out = [];
  const err = [];
  child.stdout.on("data", (c) => out.push(c));
  child.stderr.on("data", (c) => err.push(c));
  child.on("error", (error) => {
    if (child.pid === undefined) {
      answer({ code: null, error: error.message, stdout: Buffer.alloc(0), stderr: "" });
    }
  });
  if (m.input !== undefined && child.stdin) {
    child.stdin.on("error", () => undefined);
    child.stdin.end(m.input);
  }
  child.on("close", (code) => {
    answer({ code, error: null, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") });
  });
});
process.send({ ready: true });
`;

interface Reply {
  id?: number;
  ready?: boolean;
  code?: number | null;
  error?: string | null;
  stdout?: Uint8Array;
  stderr?: string;
}

interface Pending {
  resolve: (result: GitResult) => void;
  reject: (error: Error) => void;
}

/** How long a new helper has to say it is ready. */
const READY_WITHIN_MS = 10_000;

/** After this many helpers died, every command is spawned here (something is wrong). */
const MAX_HELPER_DEATHS = 3;

class Spawner {
  private helper: ChildProcess | undefined;
  private ready = false;
  private deaths = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Commands started by the helper and from here (tests, bench). */
  readonly counts = { helper: 0, here: 0 };

  get helperPid(): number | undefined {
    return this.ready ? this.helper?.pid : undefined;
  }

  run(request: SpawnRequest): Promise<GitResult> {
    gitStarted.publish({ args: request.args });
    this.start();
    const helper = this.helper;
    if (!this.ready || helper === undefined || !helper.connected) {
      this.counts.here += 1;
      return spawnHere(request);
    }
    this.counts.helper += 1;
    const id = this.nextId++;
    return new Promise<GitResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.hold(true);
      helper.send(
        {
          id,
          args: request.args,
          cwd: request.cwd,
          env: request.env,
          ...(request.input === undefined ? {} : { input: request.input }),
        },
        (error) => {
          if (error) this.settle(id, (p) => p.reject(notRun(request.args, error.message)));
        },
      );
    });
  }

  private start(): void {
    if (this.helper !== undefined || this.deaths >= MAX_HELPER_DEATHS) return;
    let helper: ChildProcess;
    try {
      helper = spawn(process.execPath, ["-e", HELPER], {
        // Nothing of the engine's environment (tokens, NODE_OPTIONS): each command brings
        // its own. The helper's own output goes nowhere.
        env: {},
        stdio: ["ignore", "ignore", "ignore", "ipc"],
        serialization: "advanced",
      });
    } catch {
      this.deaths = MAX_HELPER_DEATHS;
      return;
    }
    this.helper = helper;
    this.ready = false;
    // A helper that never says it is ready (process.execPath is not a plain node) is ended;
    // commands went on being spawned here meanwhile.
    const silent = setTimeout(() => helper.kill("SIGKILL"), READY_WITHIN_MS);
    silent.unref();
    helper.on("message", (reply: Reply) => {
      if (reply.ready === true) {
        clearTimeout(silent);
        this.ready = true;
        return;
      }
      if (reply.id === undefined) return;
      this.settle(reply.id, (p) => {
        if (reply.code === null && typeof reply.error === "string") {
          p.reject(notRun([], reply.error));
          return;
        }
        const out = reply.stdout ?? new Uint8Array(0);
        p.resolve({
          code: reply.code ?? null,
          stdout: Buffer.from(out.buffer, out.byteOffset, out.byteLength),
          stderr: reply.stderr ?? "",
        });
      });
    });
    const gone = () => {
      if (this.helper !== helper) return;
      this.helper = undefined;
      this.ready = false;
      this.deaths += 1;
      for (const [id] of this.pending) {
        this.settle(id, (p) => p.reject(notRun([], "the process that started it exited")));
      }
    };
    helper.on("exit", gone);
    helper.on("error", gone);
    this.hold(false);
  }

  private settle(id: number, how: (p: Pending) => void): void {
    const p = this.pending.get(id);
    if (p === undefined) return;
    this.pending.delete(id);
    how(p);
    if (this.pending.size === 0) this.hold(false);
  }

  /** The helper keeps the engine alive only while it runs a command for it. */
  private hold(busy: boolean): void {
    const helper = this.helper;
    if (helper === undefined) return;
    const channelHandle = helper.channel as { ref(): void; unref(): void } | null | undefined;
    if (busy) {
      helper.ref();
      channelHandle?.ref();
    } else {
      helper.unref();
      channelHandle?.unref();
    }
  }
}

function notRun(args: readonly string[], why: string): Error {
  return Object.assign(new Error(`cfa/git: cannot run git: ${why}`), { args });
}

/** Spawns git from this process (before the helper is ready, or without one). */
function spawnHere(request: SpawnRequest): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...request.args], {
      cwd: request.cwd,
      env: request.env,
      stdio: [request.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr!.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => reject(notRun(request.args, error.message)));
    if (request.input !== undefined && child.stdin) {
      // A command that exits before reading all of it is not an error of ours.
      child.stdin.on("error", () => undefined);
      child.stdin.end(request.input);
    }
    child.on("close", (code) => {
      resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") });
    });
  });
}

const spawner = new Spawner();

/** Who started how many commands, and the helper's pid while it is up (tests, bench). */
export function gitSpawnerState(): {
  helper: number;
  here: number;
  helperPid: number | undefined;
} {
  return { ...spawner.counts, helperPid: spawner.helperPid };
}

/** Runs one git command to its end: through the helper when it is up, else from here. */
export function spawnGitProcess(request: SpawnRequest): Promise<GitResult> {
  return spawner.run(request);
}

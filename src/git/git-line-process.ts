// A git command kept running for many requests, one line in and one line out each:
// every git process costs the engine 5–15 ms to start, and a job stages its
// records at every commit. `git hash-object --stdin-paths` answers each path with its id and
// flushes at once when its output is a pipe (builtin/hash-object.c, maybe_flush_or_die;
// Git.pm's hash_and_insert_object keeps one open the same way). The process is started
// through the hardened runner (git-client.ts), so it reads the same config and environment
// as any other engine command; it is ended when idle, and by the parent's exit at the latest
// (its stdin closes).

import type { ChildProcess } from "node:child_process";

/** How long a process waits for the next request before it is ended. */
const IDLE_MS = 5_000;

/** Every process started and not yet closed: a wake ends those idle (closeIdleLineProcesses). */
const live = new Set<GitLineProcess>();

/**
 * Ends every line process not answering a request now. A wake calls it as it ends: a process
 * left for its idle timeout keeps its work tree busy (its cwd) after the wake returned.
 */
export function closeIdleLineProcesses(): void {
  for (const process of live) if (process.isIdle()) process.close();
}

export class GitLineProcess {
  private child: Promise<ChildProcess> | undefined;
  private asking = 0;
  private buffered = "";
  private readonly waiting: { resolve: (line: string) => void; reject: (e: Error) => void }[] = [];
  private idle: NodeJS.Timeout | undefined;
  private failure: Error | undefined;

  constructor(private readonly start: () => Promise<ChildProcess>) {}

  /** Sends `lines` and resolves one answer line per line sent, in order. */
  async ask(lines: readonly string[]): Promise<string[]> {
    if (this.idle) clearTimeout(this.idle);
    this.asking += 1;
    try {
      return await this.askNow(lines);
    } finally {
      this.asking -= 1;
    }
  }

  /** Whether no request is being answered (nor about to be sent). */
  isIdle(): boolean {
    return this.asking === 0;
  }

  private async askNow(lines: readonly string[]): Promise<string[]> {
    const child = await this.ensure();
    const answers = lines.map(
      (): Promise<string> =>
        new Promise((resolve, reject) => this.waiting.push({ resolve, reject })),
    );
    hold(child, true);
    child.stdin!.write(lines.map((line) => `${line}\n`).join(""));
    try {
      return await Promise.all(answers);
    } finally {
      if (this.waiting.length === 0) hold(child, false);
      // One timer at most, and it ends only an idle process: with two asks overlapping, the
      // first one's timer was left running unreferenced, and fired `close()` under a later
      // ask that had taken the process but not yet written to it — git exited (0) without
      // its lines ("git exited (0) before answering", seen in a replay of two jobs at once).
      if (this.idle) clearTimeout(this.idle);
      this.idle = setTimeout(() => {
        if (this.isIdle()) this.close();
      }, IDLE_MS);
      this.idle.unref();
    }
  }

  /** Ends the process (its stdin closed): it exits once it has answered what it read. */
  close(): void {
    if (this.idle) clearTimeout(this.idle);
    live.delete(this);
    const child = this.child;
    this.child = undefined;
    void child?.then((c) => c.stdin?.end()).catch(() => undefined);
  }

  private ensure(): Promise<ChildProcess> {
    if (this.child === undefined) {
      live.add(this);
      this.failure = undefined;
      const started = this.start().then((child) => {
        let stderr = "";
        child.stdout!.setEncoding("utf8");
        child.stdout!.on("data", (chunk: string) => this.take(chunk));
        child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
        child.stdin!.on("error", () => undefined);
        const fail = (error: Error) => {
          this.failure = error;
          if (this.child === started) this.child = undefined;
          for (const w of this.waiting.splice(0)) w.reject(error);
        };
        child.on("error", (error) => {
          if (this.child === started) fail(new Error(`cfa/git: cannot run git: ${error.message}`));
        });
        child.on("close", (code) => {
          // A process already replaced (ended idle, then a later ask started the next one)
          // answers nothing more: the requests waiting now are the next one's. Failing them
          // here was "git exited (0) before answering" under load, where the old process's
          // exit comes after the next ask (an idle timeout inside a long verification).
          if (this.child !== started) return;
          if (this.waiting.length > 0) {
            fail(new Error(`cfa/git: git exited (${code}) before answering: ${stderr.trim()}`));
          } else {
            this.child = undefined;
          }
        });
        hold(child, false);
        return child;
      });
      started.catch(() => (this.child = undefined));
      this.child = started;
    }
    if (this.failure) throw this.failure;
    return this.child;
  }

  private take(chunk: string): void {
    this.buffered += chunk;
    let end: number;
    while ((end = this.buffered.indexOf("\n")) >= 0) {
      const line = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      this.waiting.shift()?.resolve(line);
    }
  }
}

/**
 * An idle process must not keep the engine's process alive; one with a request pending
 * must, or Node would exit while waiting for its answer.
 */
function hold(child: ChildProcess, pending: boolean): void {
  type Handle = { ref?: () => void; unref?: () => void } | null;
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as Handle[]) {
    if (pending) handle?.ref?.();
    else handle?.unref?.();
  }
}

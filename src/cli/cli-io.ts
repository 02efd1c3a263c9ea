// What a `cfa` command reads and writes, passed in (dependencies as options), so
// the whole command runs in a test without touching the process.

import type { PatienceOptions } from "../adapters/anthropic/patience.js";
import type { Clock } from "../ports/clock.js";
import type { Model } from "../ports/model.js";
import type { ToolSetName } from "../records/tool-sets.js";

export interface CliOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  env: Record<string, string | undefined>;
  cwd: string;
  /** What `cfa run -` reads the request from (the process's standard input). */
  stdin?: AsyncIterable<Uint8Array | string>;
  /**
   * Test seam: the model the waking verbs use instead of the Anthropic API. With it, no
   * ANTHROPIC_API_KEY is needed and nothing reaches the network.
   */
  model?: Model;
  /**
   * Test seam: how the real model adapter waits between retries (its clock and sleep), so a
   * test drives the real adapter through minutes of outage in no time.
   */
  modelPatience?: Omit<PatienceOptions, "patienceMs">;
  /**
   * Test seam: the tools a job started now gets (default CURRENT_TOOL_SET): a test's scripted
   * model plays responses made with its recording's tools.
   */
  toolSet?: ToolSetName;
  /** Test seam: the clock of a local run (default: the system clock). */
  clock?: Clock;
  /** Test seam: where job areas live (default: the user's cache folder, per repository). */
  workRoot?: string;
  /**
   * Test seam: the order ended turns are applied in (EngineDeps.applyOrder). Responses served
   * from a recording over HTTP assume the order they were recorded in, as `cfa replay` does.
   */
  applyOrder?: "finished" | "started";
  /** Stops a wake at its next safe point, and `watch --follow` (Ctrl-C in the real process). */
  signal?: AbortSignal;
  /** All of standard input, as text (`cfa followup N -`); absent: there is none to read. */
  readStdin?: () => Promise<string>;
}

/**
 * The real process. Ctrl-C once stops at the next safe point (a wake between turns, so the
 * job keeps every complete turn: docs/protocol.md#persistence); twice quits at once.
 */
export function processIo(): CliIo {
  const stop = new AbortController();
  process.on("SIGINT", () => {
    if (stop.signal.aborted) process.exit(130);
    process.stderr.write("\ncfa: stopping… (Ctrl-C again to quit at once)\n");
    stop.abort();
  });
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    signal: stop.signal,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}

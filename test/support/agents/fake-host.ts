// A TurnHost that records every call and answers as told (ok by default).

import type { CommandResult } from "../../../src/ports/sandbox.js";
import type { HostResult, TurnHost } from "../../../src/agents/turn-contract.js";

export interface HostCall {
  method: keyof TurnHost;
  args: unknown[];
}

export type FakeHost = TurnHost & { calls: HostCall[] };

/** A command that ran and ended with exit 0, saying nothing: what a host answers by default. */
export const QUIET_COMMAND: CommandResult = {
  exitCode: 0,
  signal: null,
  stdout: "",
  stderr: "",
  timedOut: false,
  truncated: false,
  durationMs: 1,
};

export function fakeHost(
  answers: Partial<Record<Exclude<keyof TurnHost, "runCommand" | "runShell">, HostResult>> = {},
  command: Partial<CommandResult> = {},
): FakeHost {
  const calls: HostCall[] = [];
  const result = (): CommandResult => ({ ...QUIET_COMMAND, ...command });
  const answer =
    (method: Exclude<keyof TurnHost, "runCommand" | "runShell">) =>
    (...args: unknown[]): Promise<HostResult> => {
      calls.push({ method, args });
      return Promise.resolve(answers[method] ?? { ok: true, text: `${method} done` });
    };
  return {
    calls,
    dispatch: answer("dispatch"),
    send: answer("send"),
    close: answer("close"),
    ask: answer("ask"),
    finish: answer("finish"),
    verdict: answer("verdict"),
    proxyAnswer: answer("proxyAnswer"),
    proxyEscalate: answer("proxyEscalate"),
    proxyWithdraw: answer("proxyWithdraw"),
    runCommand(argv) {
      calls.push({ method: "runCommand", args: [argv] });
      return Promise.resolve(result());
    },
    runShell(call) {
      calls.push({ method: "runShell", args: [call] });
      if (call.command === undefined) return Promise.resolve({ result: null, notes: [], cwd: "." });
      return Promise.resolve({ result: result(), notes: [], cwd: "." });
    },
  };
}

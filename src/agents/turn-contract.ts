// The contract between the engine and one agent turn (one Run(A, t, m) of
// docs/protocol.md#message-soup). The agents layer knows nothing of GitHub or of the soup's
// internals: the engine hands a turn its inputs and a TurnHost through which every protocol-level
// effect goes, and gets back what the turn produced, from which it fires [send-step], [nosend-step]
// or [ask-step].

import type { NetworkSetting } from "../config/network-setting.js";
import type { Address } from "../protocol/address.js";
import type { OutcomeRecord } from "../protocol/outcome-record.js";
import type {
  Effort,
  Message,
  Model,
  ModelRequest,
  ModelResponse,
  ModelUsage,
} from "../ports/model.js";
import type { CommandResult } from "../ports/sandbox.js";
import type { ToolSetName } from "../records/tool-sets.js";
import type { ShellCall, ShellOutcome } from "./shell/run-shell.js";
import type { RepoInstructions } from "./instructions/repo-instructions.js";
import type { McpTurnConfig } from "./mcp/mcp-turn-config.js";

/** What crossed the bus to wake this turn (the `m` of Run(A, t, m)), as the engine renders it. */
export interface IncomingMessage {
  /** e.g. "begin", "task", "reply", "answer", "intervention", "recovery", "verdict". */
  kind: string;
  /** Ready-to-read text; untrusted parts are already wrapped as data by the engine. */
  text: string;
  /** For kind "answer": the escalation it answers, so a pending ask_question gets its result. */
  answers?: string;
}

export const QUESTION_KINDS = ["question", "gate"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export interface Question {
  kind: QuestionKind;
  text: string;
  /** For a gate: the artifact under review, relative to the workspace root. */
  artifact?: string;
}

/** A tool's answer to the model: text, or an error the model can act on. */
export type HostResult = { ok: true; text: string } | { ok: false; error: string };

export interface TurnHost {
  /** Spark a task ([spark]): provisions its worktree; refused past the fan-out cap. */
  dispatch(task: { id: string; brief: string; files: string[] }): Promise<HostResult>;
  /** A message to a task this instance dispatched, or (for a task) to its dispatcher. */
  send(to: { task: string } | { parent: true }, text: string): Promise<HostResult>;
  /** [send-terminate] of a task after its verifier passes it; the merge is the engine's. */
  close(task: string): Promise<HostResult>;
  /** AskQuestion: validated now; the turn ends after it and the answer arrives later. */
  ask(question: Question): Promise<HostResult>;
  /** Writes the outcome record at `.cfa/outcome.json`; refuses outcomes outside the state. */
  finish(record: OutcomeRecord): Promise<HostResult>;
  /** The verifier's verdict. */
  verdict(verdict: {
    verdict: "pass" | "fail";
    issues: string[];
    notes: string;
  }): Promise<HostResult>;
  /** The proxy's three moves (docs/protocol.md#escalation). */
  proxyAnswer(text: string): Promise<HostResult>;
  proxyEscalate(question: string): Promise<HostResult>;
  proxyWithdraw(reason: string): Promise<HostResult>;
  runCommand(argv: string[]): Promise<CommandResult>;
  /**
   * One bash tool call (src/agents/shell): a command line run by bash in the instance's shell
   * session, sandboxed, limited and recorded as runCommand's are, the role's command list an
   * audit line rather than a refusal.
   */
  runShell(call: ShellCall): Promise<ShellOutcome>;
}

export interface RoleDefinition {
  name: string;
  tier: string;
  /** The tool set `tools` is from (src/agents/tools/tool-sets.ts). */
  toolSet: ToolSetName;
  /** Tool names this role may call; any other is refused (docs/protocol.md#workspaces). */
  tools: string[];
  commands: string[];
  /** `network:` as configured (src/config/network-setting.ts); false when not set. */
  network: NetworkSetting;
  prompt: string;
}

/**
 * The model-call boundary: the host's say at every model call of a turn. `before` runs before each
 * call — caps, the turn's wall-clock limit and pending interventions are checked there — and
 * `after` runs once each response is in, before any of its tool calls run: the response is priced
 * on its own and persisted, so a turn that fails or a process that dies after k calls has paid for
 * k calls once.
 */
export interface CallBoundary {
  before(call: BoundaryCall): Promise<BeforeCall>;
  after(call: BoundaryCall & { response: ModelResponse; replayed: boolean }): Promise<void>;
}

export interface BoundaryCall {
  /** The request about to be sent (or just answered), exactly as the model sees it. */
  request: ModelRequest;
  /**
   * This turn's messages so far, the live list the loop appends to (opening message first):
   * after a failure the host still has everything the turn said and heard.
   */
  added: readonly Message[];
  /** Model calls this turn has made before this one. */
  calls: number;
}

export type BeforeCall =
  /** Send the request. */
  | { kind: "call" }
  /** The response this very request got before (a redone turn: no call is paid twice). */
  | { kind: "replay"; response: ModelResponse }
  /**
   * [interrupt] (docs/protocol.md#intervention): the Run abandons what it was on for this message,
   * keeping its context; the loop adds it to the conversation and asks the boundary again.
   */
  | { kind: "inject"; message: IncomingMessage }
  /** End the turn now, without this call: a cap, the turn's timeout, the job stopping. */
  | { kind: "stop"; cause: HaltCause; reason: string };

export const HALT_CAUSES = ["cap", "timeout", "stopped"] as const;
export type HaltCause = (typeof HALT_CAUSES)[number];

export interface TurnInput {
  instance: Address;
  role: RoleDefinition;
  model: Model;
  modelName: string;
  /**
   * Stable across the instance's turns so it caches: what is the instance's own (a lead's
   * phase skill), after `rolePrompt`, or everything when `rolePrompt` is absent.
   */
  system: string;
  /** What every instance of the role shares in the job (its prompt, workspace, the job's facts). */
  rolePrompt?: string;
  /**
   * The repository's instructions (src/agents/instructions): the block before `system` that
   * every role's requests share, and the sub-folder files given when a tool first works there.
   */
  instructions?: RepoInstructions;
  /** The instance's transcript so far (its session handle, loaded from disk). */
  transcript: Message[];
  incoming: IncomingMessage;
  workspace: {
    root: string;
    /** Root-relative prefixes the agent may read but not write (the engine's `.cfa/`). */
    protect: string[];
    readOnly: boolean;
  };
  host: TurnHost;
  /** `maxTokens`: the output budget of every role, when configured (`limits.maxTokens`). */
  limits: { toolCallsPerTurn: number; maxTokens?: number | undefined; readBytes: number };
  /** The role's configured output budget and effort (`output:` in .github/cfa.yml). */
  output?: { maxTokens?: number | undefined; effort?: Effort | undefined };
  signal?: AbortSignal;
  /** The host's hook around every model call; without one every call is simply made. */
  boundary?: CallBoundary;
  /**
   * The repository's MCP servers this role may use: started when the turn starts (their
   * tools go in its first request), stopped when it ends. Absent: none.
   */
  mcp?: McpTurnConfig;
}

export type TurnEnd =
  /** The model stopped on its own: [send-step] (the engine adds the queued sends) or [nosend-step]. */
  | { kind: "stopped" }
  /** ask_question was called: [ask-step]. */
  | { kind: "asked"; question: Question }
  /** finish was called: the outcome record is on disk. */
  | { kind: "finished" }
  /** The tool-call cap ended the turn. */
  | { kind: "capped" }
  /** The boundary stopped the turn before a model call (a job cap, the turn's timeout…). */
  | { kind: "halted"; cause: HaltCause; reason: string }
  /**
   * Set by the host, never by the loop: the turn threw (a model call refused, a tool broke,
   * its deadline cut a call) and what it did so far is kept.
   */
  | { kind: "failed"; reason: string };

export interface TurnOutput {
  /** Messages this turn added, in order: appended to the transcript. */
  messages: Message[];
  usage: ModelUsage;
  end: TurnEnd;
  modelCalls: number;
  toolCalls: number;
  /** Time spent waiting on the model, so orchestration overhead can be measured apart. */
  modelMs: number;
}

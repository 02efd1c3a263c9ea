// A temp workspace and a TurnInput around it, with defaults a test overrides.

import { afterEach, beforeEach } from "vitest";
import type { Message, Model } from "../../../src/ports/model.js";
import type {
  IncomingMessage,
  RoleDefinition,
  TurnInput,
} from "../../../src/agents/turn-contract.js";
import { removeDir, tempDir } from "../git/temp-repo.js";
import { fakeHost } from "./fake-host.js";

export async function tempWorkspace(): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = tempDir("cfa-agents-");
  return { root, cleanup: async () => removeDir(root) };
}

/** A fresh temp workspace for each test of the file, handed to `use`, removed after it. */
export function useTempWorkspace(use: (root: string) => void): void {
  let root = "";
  beforeEach(() => {
    root = tempDir("cfa-agents-");
    use(root);
  });
  afterEach(() => removeDir(root));
}

export function testRole(tools: string[], extra: Partial<RoleDefinition> = {}): RoleDefinition {
  return {
    name: "worker",
    tier: "capable",
    toolSet: "classic",
    tools,
    commands: ["git", "ls"],
    network: false,
    prompt: "You are a test worker.",
    ...extra,
  };
}

export function turnInput(
  options: {
    root: string;
    model: Model;
    role: RoleDefinition;
    transcript?: Message[];
    incoming?: IncomingMessage;
  } & Partial<Omit<TurnInput, "workspace" | "model" | "role" | "transcript" | "incoming">> & {
      readOnly?: boolean;
      protect?: string[];
      toolCallsPerTurn?: number;
    },
): TurnInput {
  return {
    instance: options.instance ?? { agent: "worker", thread: "dispatch:t1" },
    role: options.role,
    model: options.model,
    modelName: "claude-test",
    system: "system prompt",
    transcript: options.transcript ?? [],
    incoming: options.incoming ?? { kind: "task", text: "Do the task." },
    workspace: {
      root: options.root,
      protect: options.protect ?? [".cfa/"],
      readOnly: options.readOnly ?? false,
    },
    host: options.host ?? fakeHost(),
    limits: {
      toolCallsPerTurn: options.toolCallsPerTurn ?? 20,
      maxTokens: 1024,
      readBytes: 64 * 1024,
    },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}

/** The tool_result blocks of a user message, by tool_use id. */
export function resultsOf(
  message: Message | undefined,
): Map<string, { content: string; isError: boolean }> {
  const results = new Map<string, { content: string; isError: boolean }>();
  if (message?.role !== "user") return results;
  for (const block of message.content) {
    if (block.type === "tool_result") {
      results.set(block.tool_use_id, { content: block.content, isError: block.is_error === true });
    }
  }
  return results;
}

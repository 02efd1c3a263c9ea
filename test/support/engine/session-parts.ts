// The parts of a session (src/engine/job/session.ts) as a literal, for a unit test of an
// engine function that takes only those: the records (a job record from the protocol's own
// builders, the engine's initial state), the engine's dependencies cut down to a clock, a
// logger, the progress lines and the memory forge, the soup and the bus log in a plain temp
// folder. No job is opened and no git runs; a function that needs more than these parts does
// not type-check against it.

import { afterEach } from "vitest";
import { parseConfig } from "../../../src/config/index.js";
import type { EngineDeps, ProgressLine } from "../../../src/engine/index.js";
import type {
  BusLog,
  Conversation,
  JobRecords,
  JobTree,
  Reporter,
} from "../../../src/engine/job/session.js";
import { readText } from "../../../src/engine/tree/files.js";
import { fold, LOG_START, Soup, type AuditEntry } from "../../../src/protocol/bus/index.js";
import { newJobRecord, type JobRecord } from "../../../src/protocol/job-record.js";
import { initialEngineState, type EngineState } from "../../../src/records/engine-state.js";
import { jobPaths } from "../../../src/records/job-paths.js";
import { removeDir, tempDir } from "../git/temp-repo.js";
import { memoryForge, type MemoryForge } from "./memory-forge.js";

/** What a test reads back besides the parts: the progress lines, the warnings, the forge. */
export interface PartsSeen {
  forge: MemoryForge;
  lines: ProgressLine[];
  warnings: string[];
  /** The bus log's audit entries, folded from what was appended. */
  audit(): Promise<AuditEntry[]>;
}

export type SessionParts = JobRecords & Reporter & Conversation & BusLog & JobTree;

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) removeDir(root);
});

/**
 * Job 1's parts under `config` (.github/cfa.yml's text): `job` defaults to a new record, the
 * engine state to Ana's initial one. Each second of its clock is a new instant.
 */
export function sessionParts(
  options: { config?: string; job?: JobRecord; engine?: EngineState; forge?: MemoryForge } = {},
): SessionParts & { seen: PartsSeen } {
  const parsed = parseConfig(options.config ?? null);
  if (!parsed.ok) throw new Error(`test: bad config: ${JSON.stringify(parsed.errors)}`);
  const config = parsed.config;
  const forge = options.forge ?? memoryForge();
  const root = tempDir("cfa-parts-");
  roots.push(root);
  const lines: ProgressLine[] = [];
  const warnings: string[] = [];
  const paths = jobPaths(1);
  const deps = unitDeps({ forge, root, lines, warnings });
  return {
    n: 1,
    paths,
    config,
    job: options.job ?? newJobRecord({ job: 1, title: "Greet", at: "2026-11-22T10:00:00.000Z" }),
    engine: options.engine ?? initialEngineState("ana"),
    deps,
    soup: new Soup({ fanOutCap: config.fanOut }),
    log: LOG_START,
    jobWs: { root, branch: paths.branch },
    seen: {
      forge,
      lines,
      warnings,
      audit: async () =>
        fold((await readText(root, paths.bus)) ?? "", { fanOutCap: config.fanOut }).audit,
    },
  };
}

/**
 * The engine's dependencies for a unit test: the memory forge, a clock a second on at each
 * read, a logger that keeps warnings, the progress lines; no model call and no command.
 */
export function unitDeps(options: {
  forge: MemoryForge;
  root: string;
  lines: ProgressLine[];
  warnings: string[];
  workspaces?: EngineDeps["workspaces"];
}): EngineDeps {
  let t = Date.parse("2026-11-22T10:00:00.000Z");
  return {
    forge: options.forge,
    model: {
      complete: () => Promise.reject(new Error("test: no model call in an engine unit test")),
    },
    resolveModel: (tier) => (tier === "capable" ? "claude-test" : tier),
    price: () => 0.01,
    sandbox: () => Promise.reject(new Error("test: no command in an engine unit test")),
    workspaces:
      options.workspaces ??
      (() => {
        throw new Error("test: no worktree in an engine unit test");
      }),
    repoDir: `${options.root}/repo`,
    workRoot: options.root,
    clock: { now: () => new Date((t += 1000)) },
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message) => options.warnings.push(message),
      error: (message) => options.warnings.push(message),
    },
    env: {},
    progress: (line) => options.lines.push(line),
  };
}

// The records of a job, parsed (pure): state.json, the bus log, the transcripts. Problems
// are collected, not thrown, so `watch` and `inspect` show what they can of a damaged or
// half-written record and say what they could not read.

import { parseConfig, defaultConfig, type CfaConfig } from "../config/index.js";
import { engineState, type EngineState } from "../records/engine-state.js";
import { parseAddressKey } from "../protocol/address.js";
import {
  LINE_SCHEMAS,
  fold,
  isBusEventType,
  type AskHumanMolecule,
  type BusLine,
} from "../protocol/bus/index.js";
import { parseJobRecord, type JobRecord } from "../protocol/job-record.js";
import { TranscriptEntrySchema, type TranscriptEntry } from "../agents/transcript/index.js";
import type { ModelUsage } from "../ports/model.js";
import type { JobRecordTexts } from "./job-records.js";

export interface TurnView {
  turn: number;
  /** Null while the turn has no turn-end line (in flight, or cut by a crash). */
  usage: ModelUsage | null;
  toolUses: { name: string; input: unknown }[];
}

export interface InstanceView {
  key: string;
  agent: string;
  thread: string;
  turns: TurnView[];
}

export interface PendingAsk {
  id: string;
  kind: "gate" | "question";
  caller: string;
  text: string;
  artifact?: string;
}

export interface JobView {
  n: number;
  /** Which round of the issue: 1 the job, k ≥ 2 a follow-up (records/job-paths.ts). */
  round?: number;
  ref: string;
  head: string;
  job: JobRecord | null;
  engine: EngineState | null;
  lines: BusLine[];
  instances: InstanceView[];
  /** AskHuman escalations: what the job waits on the person for. */
  pending: PendingAsk[];
  /** Instances with mail and nothing stopping them (a wake was cut short), as agent@thread. */
  runnable: string[];
  files: string[];
  config: CfaConfig;
  problems: string[];
}

export function readJobView(texts: JobRecordTexts): JobView {
  const problems: string[] = [];
  let job: JobRecord | null = null;
  let engine: EngineState | null = null;
  if (texts.state !== null) {
    try {
      job = parseJobRecord(texts.state);
      engine = engineState(job);
    } catch (error) {
      problems.push(`state.json: ${(error as Error).message}`);
    }
  }
  const parsedConfig = parseConfig(texts.config);
  const config = parsedConfig.ok ? parsedConfig.config : defaultConfig();
  if (!parsedConfig.ok) problems.push(".github/cfa.yml is not valid; showing defaults");

  const lines = parseBusLines(texts.bus, problems);
  let pending: PendingAsk[] = [];
  let runnable: string[] = [];
  try {
    const { soup } = fold(texts.bus, { fanOutCap: config.fanOut });
    runnable = soup
      .runnable()
      .map((a) => `${a.agent}@${a.thread}`)
      .filter((key) => key !== "cfa@job")
      .sort();
    pending = soup
      .pendingEscalations()
      .filter((m): m is AskHumanMolecule => m.kind === "AskHuman")
      .map((m) => pendingAsk(m, engine))
      .sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }));
  } catch (error) {
    problems.push(`bus.jsonl: ${(error as Error).message}`);
  }

  const instances = Object.entries(texts.transcripts)
    .map(([name, text]) => instanceView(name, text, problems))
    .filter((i): i is InstanceView => i !== null)
    .sort((a, b) => a.key.localeCompare(b.key));

  return {
    n: texts.job,
    round: texts.round,
    ref: texts.ref,
    head: texts.head,
    job,
    engine,
    lines,
    instances,
    pending,
    runnable,
    files: texts.files,
    config,
    problems,
  };
}

function pendingAsk(m: AskHumanMolecule, engine: EngineState | null): PendingAsk {
  const meta = engine?.escalations[m.id];
  const artifact = meta?.artifact ?? m.framed.data?.artifact;
  return {
    id: m.id,
    kind: meta?.kind ?? (m.framed.kind === "gate" ? "gate" : "question"),
    caller: `${m.caller.agent}@${m.caller.thread}`,
    text: m.framed.text,
    ...(typeof artifact === "string" ? { artifact } : {}),
  };
}

/** Every whole line of the log, validated; a torn last line is skipped, as fold does. */
export function parseBusLines(text: string, problems: string[] = []): BusLine[] {
  const out: BusLine[] = [];
  const raw = text.split("\n");
  raw.pop(); // after the last newline: "" or a torn line
  raw.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      const json = JSON.parse(line) as { type?: unknown };
      if (!isBusEventType(json.type)) throw new Error(`unknown event type ${String(json.type)}`);
      out.push(LINE_SCHEMAS[json.type].parse(json) as BusLine);
    } catch (error) {
      problems.push(`bus.jsonl line ${i + 1}: ${(error as Error).message.split("\n")[0]}`);
    }
  });
  return out;
}

function instanceView(name: string, text: string, problems: string[]): InstanceView | null {
  return instanceOfEntries(name, transcriptEntries(text), problems);
}

/** The entries of a transcript's text; a torn line is skipped (loadTranscript has the strict reading). */
export function transcriptEntries(text: string): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      out.push(TranscriptEntrySchema.parse(JSON.parse(line)));
    } catch {
      continue; // a torn line
    }
  }
  return out;
}

/** An instance's turns from its transcript's entries, named by the file's `agent@thread~…` name. */
export function instanceOfEntries(
  name: string,
  entries: readonly TranscriptEntry[],
  problems: string[],
): InstanceView | null {
  const key = name.replace(/~/g, ":");
  let address;
  try {
    address = parseAddressKey(key);
  } catch {
    problems.push(`instances/${name}.jsonl: not an agent@thread name`);
    return null;
  }
  const turns = new Map<number, TurnView>();
  const turnOf = (n: number) => {
    let t = turns.get(n);
    if (!t) turns.set(n, (t = { turn: n, usage: null, toolUses: [] }));
    return t;
  };
  for (const entry of entries) {
    const turn = turnOf(entry.turn);
    if (entry.type === "turn-end") {
      turn.usage = entry.usage;
    } else if (entry.type === "message" && entry.message.role === "assistant") {
      for (const block of entry.message.content) {
        if (block.type === "tool_use") turn.toolUses.push({ name: block.name, input: block.input });
      }
    }
  }
  return {
    key,
    agent: address.agent,
    thread: address.thread,
    turns: [...turns.values()].sort((a, b) => a.turn - b.turn),
  };
}

// `cfa inspect N --task <id>`: one task up
// close, from the job's records alone — its brief, what its worker replied, each verifier
// run with the commands it ran and its verdict, its branch and where it merged. Pure.
//
// Agents wrote most of this: it reaches a terminal with its control characters removed (an
// escape sequence in a brief would otherwise drive the person's terminal).

import { callFacts } from "../agents/tools/call-facts.js";
import type { TaskMeta } from "../records/engine-state.js";
import { evidenceOutcome, type CommandEvidence } from "../records/command-evidence.js";
import { addressKey } from "../protocol/address.js";
import type { InstanceView, JobView } from "./job-view.js";
import { filesWritten, verdictOf, verifiersOf } from "./instance-facts.js";
import { countOf } from "./count-of.js";

/** The lines of the task's section, or null when the job has no task `id`. */
export function renderTask(view: JobView, id: string): string[] | null {
  const meta = view.engine?.tasks[id];
  if (meta === undefined) return null;
  const job = `cfa/${view.n}`;
  const into = meta.parent !== undefined ? (view.engine?.tasks[meta.parent]?.branch ?? job) : job;
  const worker = view.instances.find((i) => i.key === `worker@dispatch:${id}`);
  const lines = [
    `Task ${id} of job #${view.n} — ${meta.status}${verdictNote(meta)}`,
    `  branch: ${meta.branch}${meta.base ? ` from ${into} at ${meta.base.slice(0, 7)}` : ""}`,
    `  ${mergeLine(meta, into)}`,
    `  dispatched by: ${meta.parent !== undefined ? `task ${meta.parent}` : "the lead"}`,
    "",
    "Brief:",
    ...block(meta.brief),
  ];
  if ((meta.files ?? []).length > 0) lines.push("", `Files given: ${meta.files!.join(", ")}`);
  const written = filesWritten(worker);
  lines.push(
    "",
    `Worker ${worker?.key ?? `worker@dispatch:${id}`}: ${
      worker ? countOf(worker.turns.length, "turn") : "no transcript"
    }; files written: ${written.length > 0 ? written.map(clean).join(", ") : "none"}`,
  );

  const worked = meta.workerEvidence ?? [];
  if (worked.length > 0) {
    lines.push(
      "  commands its last turn ran (recorded):",
      ...worked.map((e) => `    $ ${evidenceText(e)}`),
    );
  }

  const replies = view.lines.flatMap((line) =>
    line.type === "deliver" && line.from.thread === meta.thread && line.content.kind === "reply"
      ? [{ to: addressKey(line.to), text: line.content.text }]
      : [],
  );
  lines.push("", `Replies (${replies.length}):`);
  if (replies.length === 0) lines.push("  none yet");
  for (const r of replies) lines.push(`  to ${r.to}:`, ...block(r.text, "    "));

  const verdicts = view.lines.flatMap((line) =>
    line.type === "verdict" && line.task === id ? [line] : [],
  );
  const runs = verifiersOf(view.instances, id);
  lines.push("", `Verifier runs (${Math.max(runs.length, verdicts.length)}):`);
  if (runs.length === 0 && verdicts.length === 0) lines.push("  none yet");
  runs.forEach((run, i) => {
    const recorded = verdicts.find((v) => addressKey(v.by) === run.key) ?? verdicts[i];
    const verdict = recorded?.verdict ?? verdictOf(run) ?? "no verdict";
    lines.push(
      `  ${run.key} — ${verdict === "pass" ? "✓ pass" : verdict === "fail" ? "✗ fail" : verdict}`,
    );
    // What the engine recorded of each command when the verdict line
    // has it; else, from older records, what the verifier's transcript asked to run.
    const evidence = recorded?.evidence;
    if (evidence !== undefined) {
      lines.push(
        evidence.length > 0 ? "    commands it ran (recorded):" : "    commands it ran: none",
        ...evidence.map((e) => `      $ ${evidenceText(e)}`),
      );
    } else {
      const commands = commandsRun(run);
      lines.push(
        commands.length > 0
          ? "    commands it asked to run (transcript):"
          : "    commands it ran: none",
        ...commands.map((c) => `      $ ${c}`),
      );
    }
    for (const issue of recorded?.issues ?? []) lines.push(...block(`- ${issue}`, "    "));
    const notes = notesOf(run);
    if (notes) lines.push("    notes:", ...block(notes, "      "));
  });
  return lines;
}

function verdictNote(meta: TaskMeta): string {
  if (meta.lastVerdict === undefined) return ", not verified";
  const fails = meta.verifyFailures > 0 ? ` (${countOf(meta.verifyFailures, "failed run")})` : "";
  return `, verifier ${meta.lastVerdict === "pass" ? "✓ pass" : "✗ fail"}${fails}`;
}

function mergeLine(meta: TaskMeta, into: string): string {
  switch (meta.status) {
    case "merged":
      return `merged into ${into}${meta.verifiedHead ? ` at its verified head ${meta.verifiedHead.slice(0, 7)}` : ""}`;
    case "conflict":
      return `did not merge into ${into}: a conflict`;
    case "dropped":
      return `dropped: not merged into ${into}, its branch deleted`;
    case "open":
      return `open: merges into ${into} when closed and verified`;
    case "queued":
      return "queued: waiting for a free slot under the fan-out cap";
    default: {
      const never: never = meta.status;
      return String(never);
    }
  }
}

function evidenceText(e: CommandEvidence): string {
  return `${clean(e.command).replace(/\n/g, " ")} → ${clean(evidenceOutcome(e))} (${(e.durationMs / 1000).toFixed(1)} s)`;
}

/** The command of each run_command and bash call of the instance, in order. */
function commandsRun(inst: InstanceView): string[] {
  return inst.turns.flatMap((turn) =>
    turn.toolUses.flatMap((use) => {
      const command = callFacts(use.name, use.input).command;
      return command === undefined ? [] : [clean(command)];
    }),
  );
}

function notesOf(inst: InstanceView): string {
  for (const turn of [...inst.turns].reverse())
    for (const use of [...turn.toolUses].reverse()) {
      const notes = (use.input as { notes?: unknown } | null)?.notes;
      if (use.name === "verdict" && typeof notes === "string") return notes.trim();
    }
  return "";
}

/** Control characters out (terminal escapes), newlines kept. */
export function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "");
}

function block(text: string, indent = "  "): string[] {
  const body = clean(text).trimEnd();
  return (body === "" ? ["(empty)"] : body.split("\n")).map((l) => `${indent}${l}`);
}

// A verdict's evidence, as a person reads it on GitHub: the commands it rests on (recorded by the
// engine, never the model's words), the workspaces' setup, and the requests the egress proxy
// refused. Pure; shared by the status comment and the check runs.

import { evidenceOutcome, type CommandEvidence } from "../records/command-evidence.js";
import type { EngineState, TaskMeta } from "../records/engine-state.js";
import { codeBlock, codeSpan } from "./untrusted-code.js";

/** "`npm test` exit 0, 32 passed"; "`make check` exit 0, no count". */
export function evidenceText(e: CommandEvidence): string {
  return `${codeSpan(e.command, 80)} ${evidenceOutcome(e)}`;
}

/** What the verifier's last run rests on, for the task table. Shown: at most the last three. */
export function verifierCell(task: TaskMeta): string {
  const verdict = task.lastVerdict;
  if (verdict === undefined) return "—";
  const fails = task.verifyFailures > 0 ? ` (${task.verifyFailures} failed)` : "";
  const evidence = task.verifierEvidence;
  if (evidence === undefined) return `${verdict}${fails}`;
  if (evidence.length === 0) {
    return verdict === "pass"
      ? `pass — **unverified**: the verifier ran no command${fails}`
      : `fail — no command run${fails}`;
  }
  return `${verdict}${fails} — ${evidence.slice(-3).map(evidenceText).join("; ")}`;
}

/** The worker's latest turn's commands, for the task table. */
export function workerCell(task: TaskMeta): string {
  const evidence = task.workerEvidence;
  if (evidence === undefined || evidence.length === 0) return "—";
  return evidence.slice(-2).map(evidenceText).join("; ");
}

/** The setup section: the last runs, and the failure the job waits on with its last lines. */
export function setupSection(engine: EngineState): string[] {
  const setup = engine.setup;
  if (setup === undefined || setup.runs.length === 0) return [];
  const lines = ["", "<details><summary>Setup</summary>", ""];
  lines.push("| workspace | command | result | time |", "|---|---|---|---|");
  for (const run of setup.runs.slice(-6)) {
    for (const c of run.commands) {
      const exit = c.timedOut
        ? "timed out"
        : c.exitCode === null
          ? "not run"
          : `exit ${c.exitCode}`;
      lines.push(
        `| ${codeSpan(run.workspace, 40)} | ${codeSpan(c.command, 80)} | ${exit} | ${(c.durationMs / 1000).toFixed(1)} s |`,
      );
    }
  }
  lines.push("", "</details>");
  return lines;
}

/** The failed setup the job waits on, for the top of the status comment. */
export function setupFailureText(failed: NonNullable<EngineState["setup"]>["failed"]): string[] {
  if (failed === undefined) return [];
  const exit = failed.exitCode === null ? "did not finish" : `exited ${failed.exitCode}`;
  return [
    `> [!WARNING]`,
    `> Setup failed in ${codeSpan(failed.workspace, 40)}: ${codeSpan(failed.command, 120)} ${exit}. The agents wait; fix \`setup:\` in \`.github/cfa.yml\` on the default branch, then comment \`/retry\` (locally: \`cfa resume\`).`,
    "",
    codeBlock(failed.tail || "(no output)"),
    "",
  ];
}

/** A refusal's host as shown: `(none)` when the bytes named none, `(other hosts)` for `*`. */
export function blockedHost(e: { host: string; port: number }): string {
  if (e.host === "") return "(none)";
  if (e.host === "*") return "(other hosts)";
  return e.port === 0 ? e.host : `${e.host}:${e.port}`;
}

/**
 * The requests the egress proxy refused, as Copilot's agent reports its firewall's blocks: "a
 * warning is added to the pull request body … The warning shows the blocked address and the
 * command that tried to make the request" (docs.github.com/en/copilot/how-tos/use-copilot-agents/
 * coding-agent/customize-the-agent-firewall). Here in the status comment and the check runs.
 */
export function blockedSection(engine: EngineState): string[] {
  const blocked = engine.blocked;
  if (blocked === undefined || blocked.entries.length === 0) return [];
  const total = blocked.entries.reduce((n, e) => n + e.count, 0) + blocked.dropped;
  const lines = [
    "",
    `<details><summary>Blocked requests (${total})</summary>`,
    "",
    "Refused by the sandbox's egress proxy (`network:` in `.github/cfa.yml` allows ecosystems and hosts):",
    "",
    "| host | protocol | reason | command | by | times |",
    "|---|---|---|---|---|---|",
  ];
  // The most recently seen first: an agent's junk refusals made earlier do not push the
  // request that matters out of the table.
  const recent = [...blocked.entries].sort((a, b) =>
    a.last < b.last ? 1 : a.last > b.last ? -1 : 0,
  );
  for (const e of recent.slice(0, 20)) {
    const host = blockedHost(e);
    lines.push(
      `| ${codeSpan(host, 80)} | ${e.protocol} | ${codeSpan(e.reason, 20)} | ${codeSpan(e.command, 80)} | ${codeSpan(e.by, 60)} | ${e.count} |`,
    );
  }
  const more = blocked.entries.length - 20;
  if (more > 0 || blocked.dropped > 0) {
    lines.push(
      "",
      `…and ${more > 0 ? `${more} more kinds` : ""}${more > 0 && blocked.dropped > 0 ? " and " : ""}${blocked.dropped > 0 ? `${blocked.dropped} more refusals` : ""} (\`cfa inspect\` and state.json list the kept ones).`,
    );
  }
  lines.push("", "</details>");
  return lines;
}

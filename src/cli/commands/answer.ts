// `cfa answer N [--id qK] "text"`: comments `/answer [qK] text` on the job's issue; the
// answer reaches the agent that asked.

import { artifactName, requireLive, waitingOn } from "../job-checks.js";
import { CliError } from "../cli-error.js";
import { jobVerb, requiredText } from "../job-verb.js";
import { UsageError } from "../usage-error.js";
import { ESCALATION_ID } from "../../comments/escalation-id.js";

export const answerCommand = jobVerb({
  name: "answer",
  usage: `
Usage: cfa answer <N> [--id qK] "<text>" [--repo DIR] [--verbose] [--record FILE]

Answers a question job N's agents asked you (a \`/answer\` comment on its issue), then wakes
the job.`,
  optionHelp: [["--id qK", "which question (needed when several are open)"]],
  options: { id: { type: "string" } },
  after: { required: ["<text>"] },
  act(n, { values, positionals }) {
    const text = requiredText("answer", positionals[1], "say your answer");
    const id = values.id;
    if (id !== undefined && !ESCALATION_ID.test(id)) {
      throw new UsageError(
        "answer",
        `--id must be a question id such as q2, got ${JSON.stringify(id)}`,
      );
    }
    return {
      action: { action: "answer", job: n, text, ...(id ? { id } : {}) },
      check(view, hint) {
        requireLive(view, hint);
        const open = view.pending.filter((p) => p.kind === "question").map((p) => p.id);
        // The log shows a gate as "ASSERT q1 … Is this what you want?": an answer to it is a
        // review, which approve and reject give.
        const gate = view.pending.find(
          (p) => p.kind === "gate" && (id === undefined || p.id === id),
        );
        if (gate !== undefined && (id !== undefined || open.length === 0)) {
          throw new CliError(
            `${gate.id} of job #${n} asks for your review of ${artifactName(view, gate.artifact)}, not an answer: ${hint("approve")} or ${hint("reject", ' --comment "…"')}.`,
          );
        }
        if (open.length === 0) {
          throw new CliError(`job #${n} has no open question: ${waitingOn(view, hint)}`);
        }
        if (id !== undefined && !open.includes(id)) {
          throw new CliError(`job #${n} has no open question ${id} (open: ${open.join(", ")}).`);
        }
        if (id === undefined && open.length > 1) {
          throw new CliError(
            `job #${n} has ${open.length} open questions (${open.join(", ")}): say which with --id.`,
          );
        }
      },
    };
  },
});

// A job verb's help (src/cli/job-verb.ts): the verb's own options, then the four every job
// verb takes, in one aligned table, then the key it needs.

import { describe, expect, it } from "vitest";
import { approveCommand } from "../../../src/cli/commands/approve.js";
import { pauseCommand } from "../../../src/cli/commands/pause.js";
import { rejectCommand } from "../../../src/cli/commands/reject.js";

describe("a job verb's usage", () => {
  it("lists the verb's options first, a continued line under its text, and needs the key by default", () => {
    expect(approveCommand.usage).toContain(
      [
        "Options:",
        "  --note TEXT     a note with the approval, kept with it in the job's records",
        "                  (--comment is the same)",
        "  --repo DIR      the repository (default: the current folder)",
        "  --verbose, -v   per-task lines in the log",
        "  --record FILE   append this action and the model's responses to a replay file",
        "  --help, -h      this help",
        "",
        "Needs ANTHROPIC_API_KEY.",
      ].join("\n"),
    );
  });

  it("widens the table for a long option, and says what a verb that runs no agent records", () => {
    expect(rejectCommand.usage).toContain(
      [
        "  --comment, -m TEXT       what must change (required)",
        "  --inline FILE:LINE:TEXT  an inline comment on line LINE of FILE in the pull request's diff",
        "                           (repeat for more)",
        "  --repo DIR               the repository",
      ].join("\n"),
    );
    expect(pauseCommand.usage).toContain("  --record FILE   append this action to a replay file\n");
    expect(pauseCommand.usage.endsWith("\n\nNeeds no key: pausing a job runs no agent.")).toBe(
      true,
    );
  });
});

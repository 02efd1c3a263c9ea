// `instructions:` in .github/cfa.yml: which of the repository's own instruction files every
// agent reads (README, "Configuration"). Absent or `true`: the files the tools people move
// from read — AGENTS.md (the convention of Codex, Copilot, Cursor and others: https://agents.md),
// CLAUDE.md (Claude Code's memory file: https://code.claude.com/docs/en/memory) and
// .github/copilot-instructions.md (Copilot's repository instructions:
// https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions).
// `false`: none. A list: these files instead, relative to the repository root. A file named in
// the list with no folder (AGENTS.md) also applies from every sub-folder holding one of that
// name, to the files under it (agents.md: "the closest AGENTS.md to the edited file wins").
// They are always read from the default branch (src/agents/instructions).

import * as z from "zod";
import { RepoPathSchema } from "./repo-path.js";

export const DEFAULT_INSTRUCTION_FILES = [
  "AGENTS.md",
  "CLAUDE.md",
  ".github/copilot-instructions.md",
] as const;

const InstructionPathSchema = RepoPathSchema(
  "expected a file path relative to the repository root (no .., not in .git)",
).refine((p) => p.length <= 200, { error: "a path of at most 200 characters" });

export const InstructionsSettingSchema = z
  .union(
    [
      z.boolean(),
      z
        .array(InstructionPathSchema)
        .max(20, { error: "at most 20 instruction files" })
        .refine((list) => new Set(list).size === list.length, {
          error: "a file is named twice",
        }),
    ],
    { error: "expected true, false, or a list of file paths (e.g. [AGENTS.md, docs/agents.md])" },
  )
  .default(true);

/** The files to read, in order; empty: instructions are off. */
export function instructionFiles(setting: z.output<typeof InstructionsSettingSchema>): string[] {
  if (setting === true) return [...DEFAULT_INSTRUCTION_FILES];
  if (setting === false) return [];
  return [...setting];
}

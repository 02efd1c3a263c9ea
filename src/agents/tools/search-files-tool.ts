// search_files: lines matching a text or a regular expression, across the workspace.

import * as z from "zod";
import { MAX_TREE_DEPTH } from "../boundary/tree-limits.js";
import { searchFiles } from "../fs/search-files.js";
import { ok, type Tool } from "./tool.js";

const SEARCH_LIMIT = 200;

const input = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .max(1000)
    .describe("The text to find (or a regular expression with regex)."),
  path: z
    .string()
    .optional()
    .describe(
      "File or folder to search, relative to your workspace root; the whole workspace by default.",
    ),
  glob: z
    .string()
    .optional()
    .describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.md".'),
  regex: z
    .boolean()
    .default(false)
    .describe(
      "Treat pattern as a regular expression in RE2 syntax: like JavaScript's, without backreferences or lookaround.",
    ),
  ignore_case: z.boolean().default(false).describe("Match regardless of letter case."),
});

export const searchFilesTool: Tool<typeof input> = {
  name: "search_files",
  description:
    "Find lines in the text files of your workspace that contain a text (or match a regular expression). Returns path:line: text for each match, up to 200 matches. Binary and very large files are skipped.",
  input,
  async run({ pattern, path, glob, regex, ignore_case }, ctx) {
    const found = await searchFiles(ctx.workspace.root, pattern, {
      protect: ctx.workspace.protect,
      ...(path === undefined ? {} : { path }),
      ...(glob === undefined ? {} : { glob }),
      regex,
      ignoreCase: ignore_case,
      limit: SEARCH_LIMIT,
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
    const lines = found.matches.map((match) => `${match.path}:${match.line}: ${match.text}`);
    if (lines.length === 0) lines.push("No matches.");
    if (found.truncated) {
      lines.push(`[truncated at ${SEARCH_LIMIT} matches; narrow the search with path or glob]`);
    }
    if (found.skipped > 0)
      lines.push(`[${found.skipped} files skipped: binary, too large or unreadable]`);
    if (found.tooDeep > 0) {
      lines.push(
        `[${found.tooDeep} folder(s) at the depth limit (${MAX_TREE_DEPTH} levels): their content is not searched]`,
      );
    }
    return ok(lines.join("\n"));
  },
};

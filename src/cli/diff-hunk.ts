// An inline review comment's diff hunk, as GitHub gives it (`diff_hunk`, "The diff of the
// line that the comment refers to": https://docs.github.com/en/rest/pulls/comments): the
// pull request's diff of the file, from the header of the hunk holding the line down to
// the line itself. GitHub takes a comment only on a line of the diff (on the new side, here);
// any other line is refused, as GitHub refuses it ("could not be resolved").

import { gitText } from "./git-text.js";

/** The hunk of `path`'s diff `base...head` down to new-side `line`; null if not in the diff. */
export async function diffHunkAt(
  repoDir: string,
  base: string,
  head: string,
  path: string,
  line: number,
): Promise<string | null> {
  const diff = await gitText(repoDir, [
    "diff",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    `${base}...${head}`,
    "--",
    path,
  ]);
  return hunkDownTo(diff, line);
}

/** In a one-file unified diff, the hunk holding new-side `line`, cut after it. Pure. */
export function hunkDownTo(diff: string, line: number): string | null {
  let hunk: string[] | null = null;
  let next = 0;
  for (const text of diff.split("\n")) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/u.exec(text);
    if (header !== null) {
      hunk = [text];
      next = Number(header[1]);
      continue;
    }
    if (hunk === null) continue;
    if (text.startsWith("\\")) continue; // "\ No newline at end of file"
    hunk.push(text);
    if (text.startsWith("-")) continue; // the old side only
    if (text.startsWith("+") && next === line) return hunk.join("\n");
    if (text.startsWith(" ") && next === line) return hunk.join("\n");
    next += 1;
  }
  return null;
}

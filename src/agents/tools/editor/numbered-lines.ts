// Lines as `cat -n` prints them (a right-aligned number, a tab, the line): the form the text
// editor tool's results take, so view_range and insert_line can name lines the model saw.

export function numberedLines(lines: readonly string[], first: number): string {
  return lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join("\n");
}

/** A file's text as lines, without the empty one after a final newline. */
export function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines;
}

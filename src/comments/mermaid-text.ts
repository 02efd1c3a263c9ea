// Text that goes inside a Mermaid diagram comes from agents (task ids, briefs) and must not
// change the diagram, end the Markdown fence around it, or carry HTML. Only a small set of
// plain characters passes as is; every other character becomes a Mermaid entity code
// (`#35;` for `#`), which Mermaid renders as the character itself
// (https://mermaid.js.org/syntax/flowchart.html#entity-codes-to-escape-characters).
// So no backtick (no fence can close), no quote (no label can end), no `<` or `>` (no HTML),
// no `;` or newline (no new statement), no `%` (no `%%{init}%%` directive) survives.

const PLAIN = /[A-Za-z0-9 _.,:/()+=-]/;

/** A label for a quoted Mermaid node (`id["…"]`): at most `max` characters, one line. */
export function mermaidLabel(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  const cut = chars.length > max ? [...chars.slice(0, max - 1), "…"] : chars;
  return cut.map((ch) => (PLAIN.test(ch) ? ch : `#${ch.codePointAt(0) ?? 63};`)).join("");
}

/** A fenced Mermaid block GitHub renders as a diagram (docs.github.com, "Creating diagrams"). */
export function mermaidBlock(lines: readonly string[]): string {
  return ["```mermaid", ...lines, "```"].join("\n");
}

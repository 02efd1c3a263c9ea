// What a reader of this repository cannot open: the project's issues ("issue 15 §3"), the
// protocol's source documents ("seed 000 §5") and the notes kept beside the project
// (DESIGN.md). A comment gives the reason instead, or cites docs/protocol.md by anchor. A
// GitHub issue in a fixture is written `#4` ("issue #4"), and a section sign is kept only
// after a public standard's name (RFC 4648 §4, GFM spec §4.4).

/** Why a line is flagged, with a pattern that finds it. */
const RULES: readonly { why: string; pattern: RegExp }[] = [
  { why: "a project issue", pattern: /\bissues? \d/gi },
  { why: "a source document", pattern: /\bseeds?(?: document)?s?'? ?\d{3}/gi },
  { why: "a section sign", pattern: /§/g },
  { why: "a document beside the project", pattern: /\b(?:DESIGN|STACK|STYLE)\.md\b/g },
];

/** A public standard whose sections a reader can look up; a § after one of them is fine. */
const STANDARD = /(?:\bRFC \d+|\bGFM spec|\bCommonMark(?: spec)?|\bPOSIX|\bECMA-\d+|\bISO[ \d/-]+)/;

export interface UntraceableCitation {
  line: number;
  why: string;
  text: string;
}

/** Each place in `text` that cites what the repository does not hold. */
export function untraceableCitations(text: string): UntraceableCitation[] {
  const found: UntraceableCitation[] = [];
  text.split("\n").forEach((line, i) => {
    for (const { why, pattern } of RULES) {
      for (const m of line.matchAll(pattern)) {
        if (why === "a section sign" && STANDARD.test(line.slice(0, m.index))) continue;
        found.push({ line: i + 1, why, text: line.trim().slice(0, 120) });
      }
    }
  });
  return found;
}

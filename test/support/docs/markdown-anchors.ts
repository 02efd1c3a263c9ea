// The anchors GitHub gives a Markdown file's headings (github-slugger: "Generate a slug just
// like GitHub does for markdown headings", https://github.com/Flet/github-slugger; a repeated
// heading gets `-1`, `-2`…), for the tests that check links and citations into the docs.
import GithubSlugger from "github-slugger";
import { marked, type Token, type Tokens } from "marked";

function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((t) => ("tokens" in t && t.tokens ? plainText(t.tokens) : "text" in t ? t.text : ""))
    .join("");
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};

/** The anchors GitHub gives a Markdown file: one per heading, plus any `id`/`name` in raw HTML. */
export function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  void marked.walkTokens(marked.lexer(markdown), (t) => {
    if (t.type === "heading") {
      const text = plainText((t as Tokens.Heading).tokens).replace(
        /&[a-z#0-9]+;/g,
        (e) => ENTITIES[e] ?? e,
      );
      anchors.add(slugger.slug(text));
    }
    if (t.type === "html")
      for (const m of (t as Tokens.HTML).text.matchAll(/\b(?:id|name)="([^"]+)"/g))
        anchors.add(m[1] ?? "");
  });
  return anchors;
}

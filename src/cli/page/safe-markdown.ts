// Markdown as a job page shows it: GitHub-flavoured, rendered by
// marked, with everything an agent or a person could have written made inert. marked
// passes raw HTML through and keeps any link's scheme (its README, markedjs/marked: "Marked
// does not sanitize the output HTML"), so this renderer replaces those parts:
// - raw HTML: comments dropped (the bot's hidden block); only a few tags GitHub's own comments use (<details>, <summary>, <br>, <b>,
//   <i>, <sub>, <sup>, <code>, <kbd>), exactly and with no attribute but `open`, stay tags;
//   every other character of it is shown as text;
// - links: a link to a place on the page (`#…`) stays a link; any other (http, javascript:,
//   data:, a relative path) is shown as its text and its address in a code span, so the page
//   never sends a request nor runs a URL;
// - images: their alt text and address, never an <img>;
// - ```mermaid blocks: a <pre class="mermaid"> of the escaped source, cleared of links,
//   clicks, pictures and configuration (inert-mermaid.ts), which the page's inlined mermaid
//   reads as text and draws with securityLevel "strict" (mermaid's config schema,
//   mermaid.js.org: "HTML tags in the text are encoded and click functionality is
//   disabled"), and the page's script checks once drawn (diagram-script.ts).

import { Marked, type Tokens } from "marked";
import { escapeHtml } from "./escape-html.js";
import { inertMermaid } from "./inert-mermaid.js";

/**
 * GitHub's alerts: a blockquote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
 * `[!WARNING]` or `[!CAUTION]` alone is drawn as a coloured call-out titled by its kind
 * (https://docs.github.com/en/get-started/writing-on-github/getting-started-with-writing-and-formatting-on-github/basic-writing-and-formatting-syntax#alerts),
 * in GitHub's own markup: `<div class="markdown-alert markdown-alert-note">` with a
 * `<p class="markdown-alert-title">`. The status comment uses them (paused, notices).
 */
const ALERT = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\n|$)/i;

const KEPT_TAG = /^<(\/?)(details|summary|br|b|i|sub|sup|code|kbd)(\s+open)?\s*\/?>$/i;

/** Raw HTML with the kept tags as tags, every other character as text. */
function inertHtml(raw: string): string {
  return raw
    .replace(/<!--[\s\S]*?(?:-->|$)/g, "") // a comment shows nothing, on GitHub as here
    .split(/(<[^<>]*>)/)
    .map((part) => {
      const tag = KEPT_TAG.exec(part);
      if (tag === null) return escapeHtml(part);
      const [, close = "", name = "", open] = tag;
      return `<${close}${name.toLowerCase()}${open && !close ? " open" : ""}>`;
    })
    .join("");
}

const markdown = new Marked({
  gfm: true,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return inertHtml(text);
    },
    link({ href, tokens }: Tokens.Link): string {
      const text = this.parser.parseInline(tokens);
      if (/^#[\w.:-]+$/.test(href)) return `<a href="${escapeHtml(href)}">${text}</a>`;
      return `${text} <code class="address">${escapeHtml(href)}</code>`;
    },
    image({ href, text }: Tokens.Image): string {
      return `[image: ${escapeHtml(text)}] <code class="address">${escapeHtml(href)}</code>`;
    },
    blockquote({ text, tokens }: Tokens.Blockquote): string {
      const alert = ALERT.exec(text);
      if (alert === null) return `<blockquote>\n${this.parser.parse(tokens)}</blockquote>\n`;
      const kind = (alert[1] ?? "NOTE").toLowerCase();
      const title = kind.charAt(0).toUpperCase() + kind.slice(1);
      const inner = this.parser.parse(markdown.lexer(text.slice(alert[0].length)));
      return `<div class="markdown-alert markdown-alert-${kind}"><p class="markdown-alert-title">${title}</p>\n${inner}</div>\n`;
    },
    code({ text, lang }: Tokens.Code): string {
      if (lang?.trim() === "mermaid") {
        return `<pre class="mermaid">${escapeHtml(inertMermaid(text))}</pre>\n`;
      }
      return `<pre><code>${escapeHtml(text)}</code></pre>\n`;
    },
  },
});

/** `source` (Markdown, hostile) as HTML that runs nothing and loads nothing. */
export function safeMarkdown(source: string): string {
  return markdown.parse(source, { async: false });
}

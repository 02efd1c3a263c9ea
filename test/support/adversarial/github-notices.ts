// What GitHub would act on in a posted text (a mention pings, a closing keyword closes), as
// far as can be checked offline: the Markdown rendered as GitHub Flavored Markdown (micromark
// with its GFM extension, raw HTML kept as GitHub keeps it), then parsed as HTML (parse5),
// then —
//
// - mentions as html-pipeline's MentionFilter and TeamMentionFilter find them (the open
//   source of GitHub's; lib/html_pipeline/node_filter/mention_filter.rb and
//   team_mention_filter.rb): in every text node outside pre, code, a, style and script,
//   `(?:^|\W)@([a-z0-9][a-z0-9-]*)` not followed by `/`, and `@org/team`;
// - closing keywords as docs "Linking a pull request to an issue" writes them (close,
//   closes, closed, fix, fixes, fixed, resolve, resolves, resolved; `KEYWORD #N`,
//   `KEYWORD OWNER/REPO#N`, and an issue URL), looked for in the Markdown as written and in
//   the text as rendered (an entity or emphasis between the letters must not hide one).

import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { parseFragment } from "parse5";

const IGNORE_PARENTS = new Set(["pre", "code", "a", "style", "script"]);
// Ruby's \W on a UTF-8 string without (?u) is every character but [A-Za-z0-9_].
const MENTION =
  /(?:^|[^A-Za-z0-9_])@([a-z0-9][a-z0-9-]*)(?!\/)(?=\.+[ \t\W]|\.+$|[^0-9a-zA-Z_.]|$)/gim;
const TEAM = /(?<=^|[^A-Za-z0-9_])@([a-z0-9][a-z0-9-]*)\/([a-z0-9][a-z0-9\-_]*)\b/gim;
const CLOSING =
  /(?<![A-Za-z0-9_])(close[sd]?|fix(?:e[sd])?|resolve[sd]?):?[ \t\r\n]+(#[0-9]+|[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+#[0-9]+|https?:\/\/\S+\/(?:issues|pull)\/[0-9]+)/gi;

export function renderGfm(markdown: string): string {
  return micromark(markdown, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
}

interface Node {
  nodeName: string;
  value?: string;
  childNodes?: Node[];
}

/** Text nodes of the rendered HTML, each with whether a mention there would count. */
function textNodes(markdown: string): { text: string; counts: boolean }[] {
  const out: { text: string; counts: boolean }[] = [];
  const walk = (node: Node, ignored: boolean) => {
    if (node.nodeName === "#text") out.push({ text: node.value ?? "", counts: !ignored });
    const inside = ignored || IGNORE_PARENTS.has(node.nodeName);
    for (const child of node.childNodes ?? []) walk(child, inside);
  };
  walk(parseFragment(renderGfm(markdown)) as unknown as Node, false);
  return out;
}

/** The rendered text, as GitHub's filters see it. */
function renderedText(markdown: string): string {
  return textNodes(markdown)
    .map((node) => node.text)
    .join("");
}

/** What a person reads: the rendered text, word joiners (invisible) removed. */
export function visibleText(markdown: string): string {
  return renderedText(markdown).replaceAll("\u2060", "");
}

export interface Notices {
  /** `login` and `org/team`, lowercased, in order. */
  mentions: string[];
  /** `keyword reference`, as found. */
  closes: string[];
}

export function githubNotices(markdown: string): Notices {
  const mentions: string[] = [];
  for (const node of textNodes(markdown)) {
    if (!node.counts || !node.text.includes("@")) continue;
    for (const m of node.text.matchAll(TEAM)) mentions.push(`${m[1]}/${m[2]}`.toLowerCase());
    for (const m of node.text.matchAll(MENTION)) mentions.push((m[1] as string).toLowerCase());
  }
  const closes = new Set<string>();
  for (const text of [markdown, renderedText(markdown)]) {
    for (const m of text.matchAll(CLOSING)) closes.add(`${m[1]} ${m[2]}`);
  }
  return { mentions, closes: [...closes] };
}

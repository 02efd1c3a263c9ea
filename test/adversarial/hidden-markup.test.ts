// Text GitHub does not render must not reach an agent (a hidden instruction is an injection): each
// case hides an instruction in a construct a person reading the issue on GitHub would not see,
// beside text they would; what the agent gets (asData, as every prompt builds it) must hold the
// second and not the first. Then inputs shaped to make a backtracking regex explode: the sanitizer
// runs on every comment, so each must finish (vitest's timeout is the only guard).

import { describe, expect, it } from "vitest";
import { asData, stripHiddenMarkup } from "../../src/comments/sanitize.js";
import { cases } from "../support/adversarial/count.js";

const H = "HIDDEN-ORDER";
const V = "VISIBLE-TEXT";
const tags = (text: string) =>
  [...text].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
const tagRefs = (text: string) =>
  [...text].map((c) => `&#x${(0xe0000 + c.charCodeAt(0)).toString(16)};`).join("");

const HIDDEN: readonly [string, string][] = [
  ["inline HTML comment", `${V} <!-- ${H} --> end`],
  ["block HTML comment over lines", `${V}\n\n<!--\n${H}\n\n-->`],
  ["HTML comment hiding a code fence", `${V}\n<!--\n\`\`\`\n${H}\n\`\`\`\n-->`],
  ["unclosed HTML comment", `${V}\n<!-- ${H}`],
  ["processing instruction", `${V} <?x ${H} ?>`],
  ["CDATA section", `${V} <![CDATA[ ${H} ]]>`],
  ["declaration", `${V} <!DOCTYPE ${H}>`],
  ["script element", `${V} <script>${H}</script>`],
  ["style element", `${V}<style type="text/css">/* ${H} */</style>`],
  ["link reference definition as a comment", `${V}\n\n[//]: # (${H})`],
  ["link reference definition, quoted title", `${V}\n\n[a]: https://e.example "${H}"`],
  ["link reference definition over three lines", `${V}\n\n[a]:\n  https://e.example\n  '${H}'`],
  ["link reference definition, label only used as text", `[${H}-label]: <https://e.example>\n${V}`],
  ["link title, double quotes", `[${V}](https://e.example "${H}")`],
  ["link title, parentheses", `[${V}](https://e.example (${H}))`],
  ["image alt text", `![${H}](https://e.example/x.png) ${V}`],
  ["image alt text longer than any bound", `![${H} ${"pad ".repeat(5000)}](x.png) ${V}`],
  ["reference image alt text", `![${H}][logo] ${V}\n\n[logo]: https://e.example/x.png`],
  ["img alt attribute", `<img alt="${H}" src="x.png"> ${V}`],
  ["an attribute value longer than any bound", `<img title="${"pad ".repeat(5000)}${H}"> ${V}`],
  ["title attribute", `<a title='${H}' href="#">${V}</a>`],
  ["aria-label attribute", `<span aria-label="${H}">${V}</span>`],
  ["data attribute", `<p data-x=${H}>${V}</p>`],
  ["placeholder attribute", `<input placeholder="${H}"> ${V}`],
  ["Unicode tag characters", `${V}${tags(H)}`],
  ["tag characters as character references", `${V}${tagRefs(H)}`],
];

describe(cases("hidden markup never reaches an agent", HIDDEN.length), () => {
  it.each(HIDDEN)("%s", (_name, text) => {
    const data = asData("comment by @mallory", text);
    expect(data).toContain(V);
    expect(data).not.toContain(H);
    // Nothing invisible is left to carry it either.
    expect(data).not.toMatch(/[\u{E0000}-\u{E007F}\u200B-\u200F\u2060-\u206F\uFEFF]/u);
  });

  it("keeps what a reader sees: text, code, links, entities of visible characters", () => {
    const shown = "Use `<b>` in [the docs](https://e.example) &#60;ok&#62; &amp; — ünï";
    expect(stripHiddenMarkup(shown)).toBe(
      "Use `<b>` in [the docs](https://e.example) <ok> &amp; — ünï",
    );
  });
});

const N = 20_000;
const PATHOLOGICAL: readonly [string, string][] = [
  ["many unclosed comments", "<!--".repeat(N)],
  ["many empty comments", "<!-->".repeat(N)],
  ["many unclosed instructions", "<?x ".repeat(N)],
  ["many unclosed CDATA", "<![CDATA[".repeat(N)],
  ["many unclosed declarations", "<!A ".repeat(N)],
  ["many unclosed script tags", "<script ".repeat(N / 2)],
  ["many unclosed image alts", "![".repeat(N)],
  ["many unclosed link titles", '[a](b "'.repeat(N / 2)],
  ["many unclosed attributes", ' alt="'.repeat(N / 2)],
  ["many link-definition-like lines", "[a]: b c\n".repeat(N / 2)],
  ["a long label with escapes", `[${"\\]".repeat(N)}]: x`],
  ["a long run of spaces before a title", `[a]: b${" ".repeat(N * 2)}x`],
];

describe(
  cases("hidden-markup stripping finishes on pathological input", PATHOLOGICAL.length),
  () => {
    it.each(PATHOLOGICAL)("%s", (_name, text) => {
      expect(typeof stripHiddenMarkup(text)).toBe("string");
    });
  },
);

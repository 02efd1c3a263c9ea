// Every relative link in README.md and docs/*.md leads somewhere: the file (or folder)
// exists, and a `#anchor` names a heading of the file it points into, slugged as GitHub
// slugs headings (github-slugger: "Generate a slug just like GitHub does for markdown
// headings", https://github.com/Flet/github-slugger; a repeated heading gets `-1`, `-2`…).
// The README was cut into docs/ files: a link left pointing at a section that moved is
// what this catches. Links are found by marked's lexer, so a link inside code is not one.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { marked, type Tokens } from "marked";
import { describe, expect, it } from "vitest";
import { anchorsOf } from "../../support/docs/markdown-anchors.js";
import { removeDir, tempDir, writeAt } from "../../support/git/temp-repo.js";

const ROOT = resolve(import.meta.dirname, "../../..");

/** Every link's target, as written. */
function linksOf(markdown: string): string[] {
  const hrefs: string[] = [];
  void marked.walkTokens(marked.lexer(markdown), (t) => {
    if (t.type === "link" || t.type === "image") hrefs.push((t as Tokens.Link).href);
  });
  return hrefs;
}

/** What is wrong with each relative link of `file` (empty when all resolve). */
function brokenLinks(file: string, root = ROOT): string[] {
  const read = (p: string) => readFileSync(p, "utf8");
  const broken: string[] = [];
  for (const href of linksOf(read(file))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto:: not ours to check
    const hash = href.indexOf("#");
    const path = decodeURIComponent(hash < 0 ? href : href.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(href.slice(hash + 1));
    const target = path === "" ? file : resolve(dirname(file), path);
    const name = `${relative(root, file)}: ${href}`;
    if (!existsSync(target)) {
      broken.push(`${name} (no ${relative(root, target)})`);
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    if (statSync(target).isDirectory() || !target.endsWith(".md")) {
      broken.push(`${name} (an anchor into something that is not Markdown)`);
      continue;
    }
    if (!anchorsOf(read(target)).has(anchor)) broken.push(`${name} (no heading #${anchor})`);
  }
  return broken;
}

const DOCS = [
  join(ROOT, "README.md"),
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(ROOT, "docs", f)),
];

describe("links in README.md and docs/", () => {
  it.each(DOCS.map((f) => [relative(ROOT, f), f]))(
    "%s: every relative link and anchor resolves",
    (_, file) => {
      expect(brokenLinks(file)).toEqual([]);
    },
  );

  it("the README stays short: 300 lines at most", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(
      301,
    );
  });

  // The control: the checker does find what is broken, and slugs as GitHub does.
  it("finds a missing file and a missing heading; passes what resolves", () => {
    const dir = tempDir("cfa-links-");
    try {
      writeAt(dir, "docs/b.md", "# Top\n");
      writeAt(
        dir,
        "docs/a.md",
        [
          "# A `code` title, with punctuation & more",
          "## Twice",
          "## Twice",
          "[ok](#a-code-title-with-punctuation--more) [ok2](#twice-1) [bad](#twice-2)",
          "[file](b.md#top) [gone](nowhere.md) [web](https://example.com/x#y) [dir](../docs)",
          "[wrong](b.md#bottom) `[code](nowhere-either.md)`",
        ].join("\n\n"),
      );
      expect(brokenLinks(join(dir, "docs/a.md"), dir)).toEqual([
        "docs/a.md: #twice-2 (no heading #twice-2)",
        "docs/a.md: nowhere.md (no docs/nowhere.md)",
        "docs/a.md: b.md#bottom (no heading #bottom)",
      ]);
    } finally {
      removeDir(dir);
    }
  });
});

// A job page (src/cli/page/) as a browser would see it, in jsdom: its DOM without running
// anything (what the page says), or with its scripts run (what executes); and mermaid's own
// parser for its diagrams. jsdom fetches nothing unless told to (its README, "Loading
// subresources": resources are not loaded by default), so nothing here reaches the network.

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { JSDOM, VirtualConsole } from "jsdom";
import { bound } from "../time-bound.js";

/** Debian's chromium when installed (`apt-get install chromium`), else null: tests skip. */
export const CHROMIUM =
  ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p)) ?? null;

/**
 * The page at `file` as a real browser leaves it once its scripts ran (headless Chromium's
 * --dump-dom, with virtual time so mermaid's drawing completes), as a DOM to inspect.
 */
export async function drawnPage(file: string): Promise<Document> {
  if (CHROMIUM === null) throw new Error("test: chromium is not installed");
  const { stdout } = await promisify(execFile)(
    CHROMIUM,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--virtual-time-budget=15000",
      "--dump-dom",
      `file://${file}`,
    ],
    { maxBuffer: 64 * 1024 * 1024, timeout: bound(120_000) },
  );
  return pageDom(stdout);
}

/** The page's DOM, no script run. */
export function pageDom(html: string): Document {
  return new JSDOM(html).window.document;
}

/** The page loaded with its scripts run (jsdom's runScripts "dangerously"): its window. */
export function runPage(html: string): JSDOM["window"] {
  // mermaid cannot lay out in jsdom (no SVG geometry): its errors are not the test's subject.
  const virtualConsole = new VirtualConsole();
  return new JSDOM(html, { runScripts: "dangerously", virtualConsole }).window;
}

/** The diagrams' sources: every <pre class="mermaid">'s text, as mermaid itself reads it. */
export function diagramsOf(doc: Document): string[] {
  return [...doc.querySelectorAll("pre.mermaid")].map((pre) => pre.textContent ?? "");
}

let parser: Promise<(text: string) => Promise<unknown>> | null = null;
/**
 * mermaid's `parse` (the npm package, as the page's bundle is): it rejects a diagram it
 * cannot draw. Its sanitizer (DOMPurify) needs a window at import: a jsdom one.
 */
export function mermaidParse(text: string): Promise<unknown> {
  parser ??= (async () => {
    const g = globalThis as Record<string, unknown>;
    if (g.window === undefined) {
      const { window } = new JSDOM("");
      g.window = window;
      g.document = window.document;
    }
    const { default: mermaid } = await import("mermaid");
    return (source: string) => mermaid.parse(source);
  })();
  return parser.then((parse) => parse(text));
}

/** The script-src hashes the page's Content-Security-Policy allows. */
export function allowedScriptHashes(doc: Document): string[] {
  const csp =
    doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content") ?? "";
  return [...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]!);
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("base64");

/** Every attribute on the page that could load or run something: src, href, on*, etc. */
export function riskyAttributes(doc: Document): string[] {
  const found: string[] = [];
  for (const el of doc.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on")) found.push(`${el.tagName} ${name}`);
      if (["src", "srcset", "action", "formaction", "data", "poster", "background"].includes(name))
        found.push(`${el.tagName} ${name}=${attr.value}`);
      if (name === "href" && !attr.value.startsWith("#"))
        found.push(`${el.tagName} href=${attr.value}`);
      if (/javascript:/i.test(attr.value)) found.push(`${el.tagName} ${name}=${attr.value}`);
    }
  }
  for (const tag of ["iframe", "object", "embed", "img", "link", "base", "form", "frame"]) {
    if (doc.querySelector(tag) !== null) found.push(`<${tag}>`);
  }
  return found;
}

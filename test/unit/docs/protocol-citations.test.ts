// Code and tests cite the protocol by section (`docs/protocol.md#withdrawal`); a citation is
// only useful if a reader lands on that section, so every one must name a heading's anchor.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anchorsOf } from "../../support/docs/markdown-anchors.js";
import { untraceableCitations } from "../../support/docs/untraceable-citations.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const CITATION = /docs\/protocol\.md#([A-Za-z0-9_-]+)/g;

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mts|md|js|mjs|ya?ml)$|^run$/.test(name)) yield path;
  }
}

const anchors = anchorsOf(readFileSync(join(ROOT, "docs", "protocol.md"), "utf8"));

/** The citations in `text` that name no section of docs/protocol.md. */
function brokenIn(text: string): string[] {
  return [...text.matchAll(CITATION)].map((m) => m[1]!).filter((a) => !anchors.has(a));
}

const SELF = "test/unit/docs/protocol-citations.test.ts";
const UNTRACEABLE = "test/support/docs/untraceable-citations.ts";

describe("docs/protocol.md citations", () => {
  it("the document has a section for each part of the protocol", () => {
    for (const anchor of [
      "jobs-and-states",
      "skill-contract",
      "phase-artifacts",
      "message-soup",
      "dispatch",
      "escalation",
      "intervention",
      "withdrawal",
      "workspaces",
      "persistence",
      "recorded-decisions",
      "run-visibility",
      "invariants",
      "configuration",
    ]) {
      expect(anchors, anchor).toContain(anchor);
    }
  });

  it("every docs/protocol.md#anchor cited in src/, test/, bench/, prompts/ and docs/ resolves", () => {
    const broken: string[] = [];
    for (const dir of ["src", "test", "bench", "prompts", "docs"]) {
      for (const file of sourceFiles(join(ROOT, dir))) {
        const rel = file.slice(ROOT.length + 1);
        if (rel === SELF) continue;
        const text = readFileSync(file, "utf8");
        broken.push(...brokenIn(text).map((a) => `${rel}: #${a}`));
      }
    }
    expect(broken).toEqual([]);
  });

  it("a citation of a missing section is caught (control)", () => {
    expect(brokenIn("see docs/protocol.md#no-such-section")).toEqual(["no-such-section"]);
    expect(brokenIn("see docs/protocol.md#withdrawal")).toEqual([]);
  });

  it("nothing in src/, test/, bench/, scripts/, docs/, the README or the project's own configuration cites a project issue, a source document or its sections", () => {
    const found: string[] = [];
    const check = (rel: string) => {
      const text = readFileSync(join(ROOT, rel), "utf8");
      found.push(
        ...untraceableCitations(text).map((c) => `${rel}:${c.line} (${c.why}): ${c.text}`),
      );
    };
    for (const dir of ["src", "test", "bench", "scripts", "prompts", "docs", ".github", ".ci"]) {
      for (const file of sourceFiles(join(ROOT, dir))) {
        const rel = file.slice(ROOT.length + 1);
        if (rel !== SELF && rel !== UNTRACEABLE) check(rel);
      }
    }
    // The root's own files (configuration, the README, the recordings' notes); not the
    // lockfile, which holds only what npm wrote.
    for (const name of readdirSync(ROOT)) {
      if (
        /\.(ts|mts|js|mjs|cjs|json|ya?ml|md)$|^Dockerfile$/.test(name) &&
        name !== "package-lock.json"
      )
        check(name);
    }
    check("recordings/README.md");
    expect(found).toEqual([]);
  });

  it("the citations a reader cannot open are caught; a fixture's #4 and a standard's § are not (control)", () => {
    const whys = (text: string) => untraceableCitations(text).map((c) => c.why);
    expect(whys("// as issue 15 §3 asks")).toEqual(["a project issue", "a section sign"]);
    expect(whys("// Issues 18 and 19")).toEqual(["a project issue"]);
    expect(whys("// the rule of seed 000 (§5)")).toEqual(["a source document", "a section sign"]);
    expect(whys("// seed 001's CO-1")).toEqual(["a source document"]);
    expect(whys("// (STYLE.md: dependencies as options)")).toEqual([
      "a document beside the project",
    ]);
    expect(whys("// issue #4 was labelled by a writer")).toEqual([]);
    expect(whys("// base64 (RFC 4648 §4 and §5); GFM spec §4.4")).toEqual([]);
    expect(whys("// see docs/protocol.md#withdrawal")).toEqual([]);
  });
});

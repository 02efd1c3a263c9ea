// The app's and the worker's config-error comment is the engine's own, so whoever posts it
// first, the others find it and there is one comment.

import { describe, expect, it } from "vitest";
import {
  configErrorComment,
  isSameConfigError,
} from "../../../src/comments/config-error-comment.js";
import { configFromText } from "../../../src/github-events/config-from-text.js";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";
import { wake } from "../../../src/engine/index.js";
import { useLocalJobs } from "../../support/engine/use-local-jobs.js";

const BAD = "label: cfa\nfanOut: 0\nmodels:\n  wroker: capable\n";

describe("the config-error comment", () => {
  const newJob = useLocalJobs();

  it("is byte for byte the comment the engine posts for the same file", async () => {
    const job = await newJob({ recording: { version: 1, instances: {} }, config: BAD });
    const n = await job.forge.openIssue({ title: "t", body: "b", labels: ["cfa"] });
    const summary = await wake(n, job.deps);
    expect(summary.state).toBeNull();

    const loaded = configFromText(BAD);
    if (loaded.ok) throw new Error("expected a bad config");
    const ours = configErrorComment(n, loaded.errors);
    const engines = (await job.forge.listComments(n)).map((c) => c.body);
    expect(engines).toEqual([ours.body]);
    expect(isSameConfigError(ours.digest)(readHiddenBlock(engines[0]!)!)).toBe(true);
    expect(ours.body).toContain("fanOut");
    expect(ours.body).toContain("models.wroker");
  });

  it("a file that is not YAML still names the label it most likely means", () => {
    expect(configFromText("label: robots\nfanOut: [\n")).toMatchObject({ ok: false, label: "cfa" });
    expect(configFromText("label: robots\nfanOut: 0\n")).toMatchObject({
      ok: false,
      label: "robots",
    });
    expect(configFromText(null)).toMatchObject({ ok: true, config: { label: "cfa" } });
  });
});

// The channels everything the bot writes leaves by, for the adversarial secret tests: each
// takes a text and gives back what would leave — a comment, a pull request, a check run, a
// commit message, a transcript's tool result and incoming message, the worker's log, a text
// cut to fit, the run's step summary. Commits go to a throwaway repository made on first use.

import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolResultBlock } from "../../../src/agents/loop/tool-result-block.js";
import { incomingText } from "../../../src/agents/loop/opening-message.js";
import { outboundForge } from "../../../src/comments/outbound-forge.js";
import { outboundText } from "../../../src/comments/outbound-text.js";
import { JobRepo } from "../../../src/engine/tree/job-repo.js";
import { transitionComment } from "../../../src/comments/record-comments.js";
import type { Forge } from "../../../src/ports/forge.js";
import { processRedactor } from "../../../src/secrets/index.js";
import { createActionsLogger } from "../../../src/worker/actions-logger.js";

let repo: { repo: JobRepo; dir: string } | undefined;

async function commitRepo(): Promise<{ repo: JobRepo; dir: string }> {
  if (repo === undefined) {
    const dir = await mkdtemp(join(tmpdir(), "cfa-secret-channels-"));
    execFileSync("git", ["init", "-q", "-b", "main", dir]);
    repo = { repo: new JobRepo(dir), dir };
  }
  return repo;
}

/** Removes the commit channel's repository (call in afterAll). */
export async function closeSecretChannels(): Promise<void> {
  if (repo !== undefined) await rm(repo.dir, { recursive: true, force: true });
  repo = undefined;
}

/** Each channel: what leaves when `text` is written there. */
export type Channel = (text: string) => Promise<string>;

function capturingForge(sent: string[]): Forge {
  const forge = {
    createComment: (_issue: number, body: string) => {
      sent.push(body);
      return Promise.resolve({
        id: 1,
        body,
        author: { login: "b", type: "Bot" },
        createdAt: "",
        url: "",
      });
    },
    createPullRequest: (pr: { title: string; body: string }) => {
      sent.push(pr.title, pr.body);
      return Promise.resolve({ number: 1 });
    },
    setCheck: (check: { summary: string }) => {
      sent.push(check.summary);
      return Promise.resolve();
    },
  };
  return forge as unknown as Forge;
}

export const CHANNELS: readonly [string, Channel][] = [
  [
    "a comment",
    async (text) => {
      const sent: string[] = [];
      await outboundForge(capturingForge(sent), processRedactor()).createComment(1, `x ${text} y`);
      return sent.join("\n");
    },
  ],
  [
    "a pull request",
    async (text) => {
      const sent: string[] = [];
      const forge = outboundForge(capturingForge(sent), processRedactor());
      await forge.createPullRequest({ head: "h", base: "b", title: text, body: text, draft: true });
      return sent.join("\n");
    },
  ],
  [
    "a check run",
    async (text) => {
      const sent: string[] = [];
      const forge = outboundForge(capturingForge(sent), processRedactor());
      await forge.setCheck({ name: "cfa/plan", sha: "a", status: "in_progress", summary: text });
      return sent.join("\n");
    },
  ],
  [
    "a commit message",
    async (text) => {
      const { repo: jobRepo, dir } = await commitRepo();
      await writeFile(join(dir, "f.txt"), `${Math.random()}\n`);
      await jobRepo.commit(`turn: ${text}`);
      return execFileSync("git", ["-C", dir, "log", "-1", "--format=%B"], { encoding: "utf8" });
    },
  ],
  [
    "a transcript's tool result",
    (text) => Promise.resolve(String(toolResultBlock("t", text, false).content)),
  ],
  [
    "a transcript's incoming message",
    (text) => Promise.resolve(incomingText({ kind: "answer", text })),
  ],
  [
    "the worker's log",
    (text) => {
      const lines: string[] = [];
      const redactor = processRedactor();
      createActionsLogger(
        (l) => lines.push(l),
        (t) => redactor.redact(t),
      ).warn(text);
      return Promise.resolve(lines.join("\n"));
    },
  ],
  [
    "a reason cut to fit a comment",
    (text) =>
      Promise.resolve(
        transitionComment({
          ...{ job: 1, seq: 1, from: "PLAN", action: "FAILURE", to: "FAILURE", by: "engine" },
          reason: `${"w ".repeat(245)}${text}`,
        } as Parameters<typeof transitionComment>[0]),
      ),
  ],
  [
    "the step summary",
    (text) =>
      Promise.resolve(
        outboundText(processRedactor().redact(`## Run\n\n${text}`, "the step summary")),
      ),
  ],
];

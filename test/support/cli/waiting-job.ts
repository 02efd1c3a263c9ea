// A local job #1 that waits on the person — at its INTENT gate, or on a question — made the
// way a person would: `cfa replay` of a recording that stops there. Its job areas live under
// the test's own cache folder (XDG_CACHE_HOME), where every verb finds them.

import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../../../src/cli/main.js";
import { call, recording, tools } from "../engine/script.js";
import { captureIo, type CapturedIo } from "./capture-io.js";

export const ART = ".cfa/jobs/1";

export interface WaitingJob {
  /** The replayed repository. */
  repo: string;
  /** XDG_CACHE_HOME of every command run on it. */
  cacheHome: string;
  /** A CliIo for a command on the job, with that cache and no key unless `env` adds one. */
  io(overrides?: Parameters<typeof captureIo>[0]): CapturedIo;
  git(...args: string[]): string;
}

export function waitsOn(kind: "gate" | "question") {
  const ask =
    kind === "gate"
      ? call("ask_question", {
          kind: "gate",
          text: "INTENT.md ready",
          artifact: `${ART}/INTENT.md`,
        })
      : call("ask_question", { kind: "question", text: "English or French?" });
  return {
    version: 1,
    request: { title: "Greet", body: "Write a greeting" },
    person: "ana",
    files: { "README.md": "# greet\n" },
    config: "escalation:\n  INTENT: always\n",
    recording: recording({
      "intent-lead@state:intent:1": [
        tools(call("write_file", { path: `${ART}/INTENT.md`, content: "# Intent\n\nGreet.\n" })),
        tools(ask),
      ],
    }),
    people: [],
  };
}

/** Replays a job that stops waiting on `kind`, in `root/<name>/repo`. */
export async function waitingJob(
  root: string,
  name: string,
  kind: "gate" | "question",
): Promise<WaitingJob> {
  const cacheHome = join(root, "cache");
  await mkdir(cacheHome, { recursive: true });
  const file = join(root, `${name}.json`);
  await writeFile(file, JSON.stringify(waitsOn(kind)));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: cacheHome };
  const replayIo = captureIo({ cwd: root, env });
  const code = await main(["replay", file, "--dir", join(root, name)], replayIo);
  if (code !== 0) throw new Error(`the replay failed: ${replayIo.err()}`);
  const repo = join(root, name, "repo");
  return {
    repo,
    cacheHome,
    io: (overrides = {}) => captureIo({ cwd: root, env, ...overrides }),
    git: (...args) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim(),
  };
}

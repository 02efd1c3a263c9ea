// Plain git for the command's own reads (records on the job branch, the person's name) and
// the replay's fresh repository. The engine's writes go through its own git layer.
//
// Started like the engine's git (src/git/git-spawner.ts), with this git's own environment:
// spawning from this process forks all of it first, which held its thread ~100 ms over the
// demo's ~20 of these (a --cpu-prof of `cfa demo`: child_process.spawn's own
// time, under createRepository, applyPersonAction, readJobRecords, writeJobPage).

import { spawnGitProcess } from "../git/git-spawner.js";

// Git must not stop to ask anything (an editor, a pager, credentials).
const gitEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined) env[key] = value;
  }
  return { ...env, GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", GIT_EDITOR: "true" };
};

/** git's stdout; rejects with git's own message when it fails. */
export async function gitText(cwd: string, args: readonly string[]): Promise<string> {
  const result = await spawnGitProcess({ args, cwd, env: gitEnv() });
  if (result.code !== 0) {
    throw new Error(
      `Command failed (exit ${result.code ?? "by signal"}): git ${args.join(" ")}\n${result.stderr}`,
    );
  }
  return result.stdout.toString("utf8");
}

/** git's stdout, or null when git fails (a missing ref or path). */
export async function gitTry(cwd: string, args: readonly string[]): Promise<string | null> {
  try {
    return await gitText(cwd, args);
  } catch {
    return null;
  }
}

/**
 * The contents of many blobs with one git process (`git cat-file --batch`): reading a
 * job's records takes one process, not one per file. Missing objects are absent.
 */
export async function gitBlobs(
  cwd: string,
  objects: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (objects.length === 0) return out;
  const result = await spawnGitProcess({
    args: ["cat-file", "--batch"],
    cwd,
    env: gitEnv(),
    input: `${objects.join("\n")}\n`,
  });
  if (result.code !== 0) throw new Error(`git cat-file --batch exited with ${result.code}`);
  const data = result.stdout;
  let pos = 0;
  for (const object of objects) {
    const nl = data.indexOf(0x0a, pos);
    if (nl < 0) break;
    const header = data.subarray(pos, nl).toString("utf8");
    pos = nl + 1;
    if (header.endsWith(" missing")) continue;
    const size = Number(header.split(" ")[2]);
    out.set(object, data.subarray(pos, pos + size).toString("utf8"));
    pos += size + 1; // the content, then a newline
  }
  return out;
}

// Plain git for the command's own reads (records on the job branch, the person's name) and
// the replay's fresh repository. The engine's writes go through its own git layer.

import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

// Git must not stop to ask anything (an editor, a pager, credentials).
const gitEnv = () => ({
  ...process.env,
  GIT_TERMINAL_PROMPT: "0",
  GIT_PAGER: "cat",
  GIT_EDITOR: "true",
});

/** git's stdout; rejects with git's own message when it fails. */
export async function gitText(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run("git", [...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    env: gitEnv(),
  });
  return stdout;
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
export function gitBlobs(cwd: string, objects: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (objects.length === 0) return Promise.resolve(out);
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["cat-file", "--batch"], { cwd, env: gitEnv() });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) {
        reject(new Error(`git cat-file --batch exited with ${code}`));
        return;
      }
      const data = Buffer.concat(chunks);
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
      resolve(out);
    });
    child.stdin.end(`${objects.join("\n")}\n`);
  });
}

// Commits someone else pushed to a job's branch, taken in by a merge whose `.cfa/` is ours:
// the engine's records have one writer, whatever was pushed (JobRepo.mergeForeign).

import type { GitClient } from "../../git/git-client.js";
import { redact } from "../../secrets/index.js";
import { outboundText } from "../../comments/outbound-text.js";
import { isUnderRecords, RECORDS_DIR } from "./record-ledger.js";

/**
 * The merge commit of `foreign` into HEAD with HEAD's `.cfa/`, or null when the two conflict
 * outside `.cfa/`. HEAD is not moved.
 */
export async function mergeForeign(
  git: GitClient,
  foreign: string,
  message: string,
): Promise<string | null> {
  const merged = await git.run([
    "merge-tree",
    "--write-tree",
    "--name-only",
    "--no-messages",
    "HEAD",
    foreign,
  ]);
  const lines = merged.stdout
    .toString("utf8")
    .split("\n")
    .filter((l) => l !== "");
  const tree = lines[0] ?? "";
  if (merged.code !== 0 && merged.code !== 1) return null;
  // Conflicted paths follow the tree id when there are any.
  const conflicted = merged.code === 1 ? lines.slice(1).filter((l) => l.trim() !== "") : [];
  if (conflicted.some((file) => !isUnderRecords(file))) return null;
  const ours = (await git.raw(["rev-parse", `HEAD^{tree}`])).trim();
  const oursRecords = (
    await git.run(["rev-parse", "--verify", "--quiet", `${ours}:${RECORDS_DIR}`])
  ).stdout
    .toString("utf8")
    .trim();
  const entries = (await git.raw(["ls-tree", tree]))
    .split("\n")
    .filter((l) => l !== "" && !l.endsWith(`\t${RECORDS_DIR}`));
  if (oursRecords !== "") entries.push(`040000 tree ${oursRecords}\t${RECORDS_DIR}`);
  const finalTree = (await git.raw(["mktree"], { input: `${entries.join("\n")}\n` })).trim();
  const clean = outboundText(redact(message, "a commit message"));
  const commit = await git.raw([
    "commit-tree",
    finalTree,
    "-p",
    "HEAD",
    "-p",
    foreign,
    "-m",
    clean,
  ]);
  return commit.trim();
}

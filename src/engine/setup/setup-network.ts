// What setup may reach: the `setup.network` the repository configured, or by
// default the ecosystems detected from the default branch's files — never the job branch's,
// so an agent adding a Cargo.toml does not widen what setup reaches.

import { detectEcosystems, type NetworkSetting } from "../../config/index.js";
import { gitClient } from "../../git/git-client.js";
import type { JobRecords, Reporter } from "../job/session.js";

export async function setupNetwork(s: JobRecords & Reporter): Promise<NetworkSetting> {
  const configured = s.config.setup.network;
  if (configured !== "detect") return configured;
  const files = await defaultBranchFiles(s);
  const found = detectEcosystems(files);
  return found.length === 0 ? false : found;
}

async function defaultBranchFiles(s: Reporter): Promise<string[]> {
  const git = gitClient(s.deps.repoDir);
  const base = await s.deps.forge.defaultBranch();
  for (const ref of [`refs/heads/${base}`, `refs/remotes/origin/${base}`]) {
    const listed = await git.run(["ls-tree", "-r", "-z", "--name-only", "--full-tree", ref]);
    if (listed.code === 0) return listed.stdout.toString("utf8").split("\0").filter(Boolean);
  }
  return [];
}

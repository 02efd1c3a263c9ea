// `sandbox.readOnlyPaths` in .github/cfa.yml: host folders added,
// read-only, to the sandbox's root. What can be judged from the text alone is judged here;
// what needs the machine (the runner's own folders, a path that does not exist) is judged
// where the sandbox is made (src/adapters/sandbox/toolchain-paths.ts).

import * as z from "zod";

/**
 * Where GitHub's ubuntu-24.04 image installs toolchains outside /usr and
 * /opt/hostedtoolcache (actions/runner-images, images/ubuntu/scripts/build/):
 * install-rust.sh installs rustup with RUSTUP_HOME=/etc/skel/.rustup and
 * CARGO_HOME=/etc/skel/.cargo (copied to the runner user's home) and puts $HOME/.cargo/bin
 * on PATH; install-pipx.sh sets PIPX_HOME=/opt/pipx and PIPX_BIN_DIR=/opt/pipx_bin and puts
 * $HOME/.local/bin on PATH; install-dotnetcore-sdk.sh puts $HOME/.dotnet/tools on PATH.
 * `~` is the home of the user the worker runs as. A path missing on a machine is skipped.
 */
export const DEFAULT_READ_ONLY_PATHS = [
  "/opt/pipx",
  "/opt/pipx_bin",
  "~/.cargo",
  "~/.rustup",
  "~/.local/bin",
  "~/.dotnet/tools",
] as const;

/**
 * Never shown, nor anything that contains them: the system's live state, the whole of /opt
 * (a self-hosted runner may live there), homes, and the files and folders of a home that
 * hold credentials.
 */
const REFUSED_WITHIN = [
  "/proc",
  "/sys",
  "/dev",
  "/run",
  "/var/run",
  "/tmp",
  "/var/tmp",
  "/etc",
  "/root",
];
const REFUSED_EXACT = ["/", "/opt", "/home", "/var", "/srv", "/mnt", "~"];
const HOME_SECRETS = [
  "~/.ssh",
  "~/.gnupg",
  "~/.aws",
  "~/.azure",
  "~/.config",
  "~/.docker",
  "~/.kube",
  "~/.netrc",
  "~/.git-credentials",
  "~/.gitconfig",
  "~/.npmrc",
  "~/.pypirc",
  "~/.gem/credentials",
  "~/.m2",
  "~/.gradle",
  "~/.nuget",
];

const within = (p: string, folder: string) => p === folder || p.startsWith(`${folder}/`);

/** Why `entry` cannot be a read-only path, or null. */
export function readOnlyPathProblem(entry: string): string | null {
  const shown = JSON.stringify(entry);
  if (!entry.startsWith("/") && entry !== "~" && !entry.startsWith("~/")) {
    return `${shown} must be an absolute path, or start with ~/ for the worker's home`;
  }
  if (
    entry.includes("\0") ||
    /\/\/|\/\.\.?(\/|$)/.test(entry) ||
    (entry.length > 1 && entry.endsWith("/"))
  ) {
    return `${shown} must be a plain path (no //, . or .. parts, no trailing /)`;
  }
  if (REFUSED_EXACT.includes(entry)) {
    return `${shown} is too wide: name the toolchain's own folder (e.g. /opt/pipx or ~/.cargo)`;
  }
  if (REFUSED_WITHIN.some((folder) => within(entry, folder))) {
    return `${shown} is the machine's live state, configuration or scratch space, never shown to commands`;
  }
  const secret = HOME_SECRETS.find((folder) => within(entry, folder) || within(folder, entry));
  if (secret !== undefined) {
    return `${shown} would show ${secret}, which holds credentials`;
  }
  return null;
}

export const ReadOnlyPathSchema = z
  .string()
  .trim()
  .max(4096)
  .superRefine((entry, ctx) => {
    const problem = readOnlyPathProblem(entry);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  });

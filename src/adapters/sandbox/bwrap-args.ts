// The bwrap command line for one command: a pure function of an already-resolved plan, so
// the mount order (which decides what is visible and writable) is tested without bwrap.

export interface BwrapPlan {
  /** Realpath of the workspace: cwd and the only writable folder. */
  cwd: string;
  argv: readonly string[];
  env: Readonly<Record<string, string>>;
  network: boolean;
  /** Existing directories to cover with an empty tmpfs (home, the main checkout, …). */
  hide: readonly string[];
  /** Existing paths to show read-only again after `hide` (the repository's gitdirs). */
  readOnly: readonly string[];
  /** Files bound read-only over existing files, after everything else. */
  overlays: readonly { source: string; target: string }[];
}

/** True when `target` is `folder` or inside it (both absolute and normalized). */
export function isWithin(target: string, folder: string): boolean {
  return folder === "/" || target === folder || target.startsWith(folder + "/");
}

export function bwrapArgs(plan: BwrapPlan): string[] {
  const { cwd } = plan;
  const args = [
    // Read-only system; a fresh /dev and /proc; a private, empty /tmp.
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
  ];
  // Hides come before any bind: a later bind into a hidden folder re-creates just that
  // path inside the tmpfs, the rest stays invisible.
  for (const folder of plan.hide) args.push("--tmpfs", folder);
  // Read-only paths outside the workspace before it, those inside it after it, so the
  // workspace bind can neither re-expose nor be covered by them.
  const outside = plan.readOnly.filter((p) => !isWithin(p, cwd));
  const inside = plan.readOnly.filter((p) => isWithin(p, cwd) && p !== cwd);
  for (const p of outside) args.push("--ro-bind", p, p);
  args.push("--bind", cwd, cwd);
  for (const p of inside) args.push("--ro-bind", p, p);
  for (const { source, target } of plan.overlays) args.push("--ro-bind", source, target);
  args.push("--chdir", cwd, "--unshare-all");
  if (plan.network) args.push("--share-net");
  args.push(
    "--die-with-parent",
    "--new-session",
    // bwrap keeps every capability when started as root (as on this machine and in many
    // containers); with CAP_SYS_ADMIN a command could `mount -o remount,rw /` and write
    // the host's files.
    "--cap-drop",
    "ALL",
    "--clearenv",
  );
  for (const [name, value] of Object.entries(plan.env)) args.push("--setenv", name, value);
  // `--` so a program name starting with a dash is never read as a bwrap option.
  args.push("--", ...plan.argv);
  return args;
}

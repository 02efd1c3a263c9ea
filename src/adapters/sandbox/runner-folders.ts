// The Actions runner's own folders, which no sandbox may show: they hold the
// runner's registration and RSA key (.runner, .credentials, .credentials_rsaparams in its
// root), the checkout (whose .git/config carries the token actions/checkout stores), and the
// files-commands of the job (GITHUB_ENV, GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STATE,
// GITHUB_STEP_SUMMARY), which a step that writes them turns into environment and outputs of
// later steps. Found two ways: from the variables the runner sets for every step (GitHub
// docs, "Variables reference": RUNNER_TEMP, GITHUB_WORKSPACE, GITHUB_ENV, GITHUB_OUTPUT,
// GITHUB_PATH, GITHUB_STATE, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH, GITHUB_ACTION_PATH;
// RUNNER_WORKSPACE, set but not listed there, is <work folder>/<repository>), and by the
// marker files a runner's root holds, for a runner the variables do not describe.

import { lstat, readdir } from "node:fs/promises";
import path from "node:path";

/** Files only an Actions runner's root folder has (actions/runner, config.sh writes them). */
export const RUNNER_ROOT_MARKERS = [
  ".runner",
  ".credentials",
  ".credentials_rsaparams",
  "bin/Runner.Listener",
] as const;

const FILE_VARIABLES = [
  "GITHUB_ENV",
  "GITHUB_OUTPUT",
  "GITHUB_PATH",
  "GITHUB_STATE",
  "GITHUB_STEP_SUMMARY",
  "GITHUB_EVENT_PATH",
] as const;

const exists = async (p: string) => (await lstat(p).catch(() => null)) !== null;

/** True when `folder` holds a marker of a runner's root. */
export async function isRunnerRoot(folder: string): Promise<boolean> {
  for (const marker of RUNNER_ROOT_MARKERS) {
    if (await exists(path.join(folder, marker))) return true;
  }
  return false;
}

/** The runner's folders named by the environment (absolute, normalized; may not exist). */
export async function runnerFoldersFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const folders = new Set<string>();
  const add = (value: string | undefined) => {
    if (value && path.isAbsolute(value)) folders.add(path.normalize(value));
  };
  add(env.RUNNER_TEMP);
  add(env.GITHUB_WORKSPACE);
  add(env.GITHUB_ACTION_PATH);
  for (const name of FILE_VARIABLES) {
    const file = env[name];
    if (file && path.isAbsolute(file)) add(path.dirname(file));
  }
  if (env.RUNNER_WORKSPACE && path.isAbsolute(env.RUNNER_WORKSPACE)) {
    // <root>/_work/<repo> on a self-hosted runner, /home/runner/work/<repo> on GitHub's:
    // the work folder holds every job's checkout, _temp and _actions.
    const work = path.dirname(path.normalize(env.RUNNER_WORKSPACE));
    add(work);
    const root = path.dirname(work);
    if (root !== "/" && (await isRunnerRoot(root))) add(root);
  }
  return [...folders];
}

const within = (p: string, folder: string) =>
  folder === "/" || p === folder || p.startsWith(`${folder}/`);

/**
 * Why showing `folder` (a real path) would show a runner folder, or null: it is inside one
 * or holds one (by the variables), or it, one of its ancestors or one of its entries is a
 * runner's root (by the markers).
 */
export async function runnerFolderProblem(
  folder: string,
  runnerFolders: readonly string[],
  /** The runner's tool cache: judged only on what it holds, not on where it lies. */
  toolCache = false,
): Promise<string | null> {
  for (const runner of runnerFolders) {
    if (!toolCache && within(folder, runner)) return `it is inside the runner's folder ${runner}`;
    if (within(runner, folder)) return `it holds the runner's folder ${runner}`;
  }
  for (let here = folder; here !== "/" && !toolCache; here = path.dirname(here)) {
    if (await isRunnerRoot(here)) return `it is inside an Actions runner's root ${here}`;
  }
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const child = path.join(folder, entry.name);
    if (await isRunnerRoot(child)) return `it holds an Actions runner's root ${child}`;
  }
  return null;
}

// The action's start: the time from the action's first step to the worker's
// first log line, for the released tree against the action as it was before releases.
//
// Every run of the route job (Actions-only mode: every comment, review and label on the
// repository) and of the sweep pays it, so the case measured is the commonest one: an
// ordinary comment, to which the worker answers "nothing to do" with no API call. Each
// case runs the action's own shell step in a fresh tree, as a runner would after
// downloading the action (https://docs.github.com/en/actions/sharing-automations/creating-actions/metadata-syntax-for-github-actions#runs-for-composite-actions:
// the steps run with GITHUB_ACTION_PATH set to the action's folder):
//
// - released: the tree a `v*.*.*` tag has after .github/workflows/release.yml (action.yml,
//   package.json, prompts/, dist/cfa-worker.mjs), running today's action.yml step;
// - before: the action before the release workflow (commit e8cb6bb^), on `@main` as the
//   templates had to use: `npm ci` (whose `prepare` runs tsc), then node dist/worker/main.js;
// - branch: today's action.yml on a tree without the bundle (`@main`, a fork): it installs
//   and bundles first, then runs the bundle.
//
// npm installs from this machine's cache (npm_config_offline): a runner also downloads the
// packages, so the installing cases are lower bounds of what a runner pays.
//
//   npm run bench -- action-start

import { spawn, spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { bundle } from "../scripts/bundle.js";
import { examplePayload } from "../test/support/github/index.js";
import { median, type BenchResult } from "./bench-result.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const RELEASED_RUNS = 5;
const FIRST_LINE = /cfa\/worker: nothing to do/;

/** action.yml's steps before the release (commit e8cb6bb^), verbatim but for the env. */
const BEFORE_STEPS = [
  `cd "$GITHUB_ACTION_PATH"
if [ -f dist/worker/main.js ]; then
  npm ci --omit=dev --ignore-scripts --no-audit --no-fund
else
  npm ci --no-audit --no-fund
fi`,
  `node "$GITHUB_ACTION_PATH/dist/worker/main.js"`,
];

/** A step whose node prints the line at once: what bash and Node's own start cost. */
const FLOOR_STEP = `exec node -e 'console.log("cfa/worker: nothing to do (floor)")'`;

export async function run(): Promise<BenchResult[]> {
  const scratch = await mkdtemp(join(tmpdir(), "cfa-action-start-"));
  try {
    const workspace = join(scratch, "workspace");
    await mkdir(workspace);
    const eventPath = join(scratch, "event.json");
    await writeFile(
      eventPath,
      JSON.stringify(
        examplePayload("issue_comment", "created", {
          issue: { number: 7, labels: [{ name: "cfa" }], state: "open" },
          comment: { id: 1, body: "thanks, looks good", user: { login: "wes", type: "User" } },
          sender: { login: "wes", type: "User" },
        }),
      ),
    );
    const env = (actionPath: string): Record<string, string> => ({
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_REPOSITORY: "octo-org/hello-world",
      GITHUB_EVENT_NAME: "issue_comment",
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: scratch,
      // Never called: an ordinary comment costs no API call.
      GITHUB_API_URL: "http://127.0.0.1:9",
      GITHUB_TOKEN: "ghs_bench_unused",
      CFA_BOT_LOGIN: "github-actions[bot]",
      npm_config_offline: "true",
      npm_config_update_notifier: "false",
    });
    const step = actionStep(await readFile(join(ROOT, "action.yml"), "utf8"));

    // Released: the tag's tree, as release.yml commits it.
    const released = join(scratch, "released");
    await bundle(join(released, "dist"));
    for (const f of ["action.yml", "package.json", "prompts"]) {
      await cp(join(ROOT, f), join(released, f), { recursive: true });
    }
    const releasedMs: number[] = [];
    const floorMs: number[] = [];
    for (let i = 0; i < RELEASED_RUNS; i += 1) {
      releasedMs.push(await untilFirstLine([step], released, env(released)));
      // The floor: the same step printing the same line from a Node that loads nothing.
      floorMs.push(await untilFirstLine([FLOOR_STEP], released, env(released)));
    }

    // Before, and today's action on a branch: the repository's tree at HEAD, fresh each time.
    const beforeTree = await checkout(scratch, "before");
    const beforeMs = await untilFirstLine(BEFORE_STEPS, beforeTree, env(beforeTree));
    const branchTree = await checkout(scratch, "branch");
    const branchMs = await untilFirstLine([step], branchTree, env(branchTree));

    const node = median(releasedMs);
    const floor = median(floorMs);
    return [
      {
        name: "action start to the worker's first line: released tree (node dist/cfa-worker.mjs)",
        unit: "ms",
        median: node,
        runs: RELEASED_RUNS,
        extra: {
          min: Math.min(...releasedMs),
          max: Math.max(...releasedMs),
          floor_ms: floor,
          vs_floor: node / floor,
        },
      },
      {
        name: "action start to the worker's first line: before releases (npm ci, tsc, node)",
        unit: "ms",
        median: beforeMs,
        runs: 1,
        extra: { vs_released: beforeMs / node, npm: "offline cache" },
      },
      {
        name: "action start to the worker's first line: today's action on a branch (npm ci, esbuild, node)",
        unit: "ms",
        median: branchMs,
        runs: 1,
        extra: { vs_released: branchMs / node, npm: "offline cache" },
      },
    ];
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The shell script of action.yml's one step. */
function actionStep(text: string): string {
  const action = parse(text) as { runs: { steps: { run?: string }[] } };
  const steps = action.runs.steps.filter((s) => s.run !== undefined);
  if (steps.length !== 1) throw new Error("cfa/bench: action.yml has more than one run step");
  return steps[0]!.run!;
}

/** The repository's committed tree at HEAD, as a runner downloads `uses: …@ref`. */
async function checkout(scratch: string, name: string): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(dir);
  const archive = spawnSync("git", ["archive", "--format=tar", "HEAD"], {
    cwd: ROOT,
    maxBuffer: 1 << 30,
  });
  if (archive.status !== 0) throw new Error("cfa/bench: git archive HEAD failed");
  const untar = spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error("cfa/bench: tar -x failed");
  return dir;
}

/**
 * Runs the steps one after the other (each its own `bash -e`, as Actions runs a step) and
 * returns the milliseconds from the first step's start to the worker's first line.
 */
async function untilFirstLine(
  steps: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<number> {
  const started = performance.now();
  for (const script of steps) {
    const seen = await new Promise<boolean>((resolve, reject) => {
      const child = spawn("bash", ["--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script], {
        cwd,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      let found = false;
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (!found && FIRST_LINE.test(out)) {
          found = true;
          resolve(true);
        }
      });
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      child.on("exit", (code) => {
        if (found) return;
        if (code === 0) resolve(false);
        else reject(new Error(`cfa/bench: a step failed (${code}):\n${err.slice(-2000)}`));
      });
    });
    if (seen) return performance.now() - started;
  }
  throw new Error("cfa/bench: the worker printed no line");
}

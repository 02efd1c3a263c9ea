// What tools leave under HOME never reaches a branch. A worker's commands run npm, pip, git,
// Python's and a shell's history, and the XDG folders — each writes under ~ (npm's debug log
// holds the runner's paths and its kernel version). HOME is the workspace's private folder
// outside the worktree (Workspace.home, shown at /home/cfa): the worktree stays clean,
// what they wrote is in the home, and a whole job whose worker runs them (and prints its own
// folder) commits none of it and no string of the runner's paths: a command's output names the
// worktree relative to itself. Positive controls: the sandbox shows a command the worktree's
// host path, and the same commands with HOME the worktree (as before) leave every dropping in
// it, for the engine's next commit.

import { existsSync } from "node:fs";
import { release } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { createGitWorkspaces } from "../../src/adapters/git/index.js";
import { createBwrapSandbox } from "../../src/adapters/sandbox/bwrap-sandbox.js";
import { createUnsandboxed } from "../../src/adapters/sandbox/unsandboxed.js";
import { runCommand } from "../../src/agents/commands/index.js";
import type { Sandbox } from "../../src/ports/sandbox.js";
import type { Workspace } from "../../src/ports/workspaces.js";
import { cases } from "../support/adversarial/count.js";
import { wakeToDone } from "../support/engine/drive.js";
import { createStrictConversationModel } from "../support/engine/conversation-model.js";
import { git } from "../support/engine/local-job.js";
import { approveGate, proxiedToExecute, pass, summedUp } from "../support/engine/recordings.js";
import { call, recording, say, tools } from "../support/engine/script.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { DROPPING_PATH, filesHolding } from "../support/git/files-holding.js";
import { makeGitFixture, type GitFixture } from "../support/git/git-fixture.js";
import { bwrapSuite, SYSTEM_PATH } from "../support/sandbox/sandbox-fixtures.js";

const { bwrapPath, bit, skipped } = bwrapSuite();

const PACKAGE = JSON.stringify({ name: "p", version: "1.0.0", scripts: { test: "node -e 0" } });

/** Each tool's way of writing under ~, and the dropping it leaves there. */
const DROPPERS: readonly [string, string[], string][] = [
  ["npm test (its debug log)", ["npm", "test"], ".npm/_logs"],
  ["npm config set (the user's .npmrc)", ["npm", "config", "set", "fund", "false"], ".npmrc"],
  [
    "pip config set (the user's pip.conf)",
    ["pip3", "config", "--user", "set", "global.timeout", "60"],
    ".config/pip/pip.conf",
  ],
  ["git config --global", ["git", "config", "--global", "user.name", "Agent"], ".gitconfig"],
  [
    "Python's readline history",
    [
      "python3",
      "-c",
      "import os, readline; readline.add_history('print(1)'); readline.write_history_file(os.path.expanduser('~/.python_history'))",
    ],
    ".python_history",
  ],
  [
    "a shell's history",
    ["bash", "-c", 'set -o history; history -s "echo hi"; history -w "$HOME/.bash_history"'],
    ".bash_history",
  ],
  [
    "the XDG folders",
    ["sh", "-c", "mkdir -p ~/.cache/tool ~/.config/tool ~/.local/share/tool"],
    ".cache/tool",
  ],
];

const WORKER_COMMANDS = ["git", "sh", "bash", "npm", "pip3", "python3"];

let fx: GitFixture;
let ws: Workspace;

beforeAll(async () => {
  fx = makeGitFixture();
  fx.write(fx.repo, "package.json", PACKAGE);
  fx.commitAll(fx.repo, "a package");
  const workspaces = createGitWorkspaces({ repoDir: fx.repo, area: fx.area });
  ws = await workspaces.create({ name: "task-droppings", branch: "cfa/1-droppings", from: "main" });
});
afterAll(() => fx.cleanup());

function run(sandbox: Sandbox, argv: string[], home: string | undefined) {
  return runCommand({
    sandbox,
    argv,
    workspaceRoot: ws.root,
    ...(home === undefined ? {} : { home }),
    role: { allowedCommands: WORKER_COMMANDS },
    env: { PATH: SYSTEM_PATH },
    timeoutMs: 60_000,
    maxOutputBytes: 1 << 20,
  });
}

/** What `git add --all` would take from the worktree now (ignored files too). */
const untracked = () =>
  git(ws.root, "status", "--porcelain", "--ignored", "--untracked-files=all")
    .split("\n")
    .filter((line) => line !== "");

describe(cases(`tool droppings under HOME${skipped}`, DROPPERS.length + 1), () => {
  bit.each(DROPPERS)(
    "%s: in the workspace's home, not its worktree",
    async (_what, argv, dropping) => {
      const sandbox = createBwrapSandbox({ bwrapPath: bwrapPath! });
      const result = await run(sandbox, argv, ws.home);
      expect(result.exitCode, `${argv.join(" ")}: ${result.stderr}`).toBe(0);
      expect(existsSync(path.join(ws.home!, dropping)), dropping).toBe(true);
      expect(untracked()).toEqual([]);
    },
  );

  const newJob = useLocalJobs();

  bit("a whole job whose worker runs them commits none of them, and no runner path", async () => {
    const model = createStrictConversationModel(
      recording({
        ...proxiedToExecute(),
        "proxy@escalation:q3": approveGate(),
        "project-lead@state:execute:1": [
          tools(call("dispatch", { id: "tools", brief: "Run the tools", files: [] })),
          say("Dispatched."),
          tools(call("close", { task: "tools" })),
          ...summedUp("The tools ran."),
        ],
        "worker@dispatch:tools": [
          ...DROPPERS.map(([, argv]) => tools(call("run_command", { argv }))),
          // Its own folder, into the transcript the engine commits.
          tools(call("run_command", { argv: ["sh", "-c", 'pwd; ls -d "$PWD"/*'] })),
          tools(call("write_file", { path: "done.txt", content: "ran\n" })),
          tools(call("reply", { text: "ran them" })),
          say("done"),
        ],
        "verifier@verify:tools-1": pass(),
      }),
    );
    const job = await newJob({
      config: [
        "escalation: { INTENT: never, PLAN: never, EXECUTE: never }",
        `commands: { worker: [${WORKER_COMMANDS.join(", ")}] }`,
        "",
      ].join("\n"),
      files: { "package.json": PACKAGE },
      model,
    });
    await wakeToDone(job, model);
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1").split("\n");
    expect(files).toContain("done.txt");
    expect(files.filter((f) => DROPPING_PATH.test(f))).toEqual([]);
    // No string of the runner's: its folders, its home, its kernel.
    const runner = [job.root, job.workRoot, process.env.HOME ?? "/nonexistent-home", release()];
    expect(filesHolding(job.repoDir, "cfa/1", runner)).toEqual([]);
  });

  bit("positive control: the sandbox itself shows a command the worktree's host path", async () => {
    const sandbox = createBwrapSandbox({ bwrapPath: bwrapPath! });
    const raw = await sandbox.run({
      argv: ["pwd"],
      cwd: ws.root,
      env: { PATH: SYSTEM_PATH },
      timeoutMs: 60_000,
      maxOutputBytes: 1 << 20,
      network: false,
    });
    expect(raw.stdout.trim()).toBe(ws.root);
    expect((await run(sandbox, ["sh", "-c", "pwd"], ws.home)).stdout.trim()).toBe(".");
  });

  bit("positive control: with HOME the worktree, every dropping lands in it", async () => {
    const leftovers: string[] = [];
    const plain = createUnsandboxed();
    for (const [, argv, dropping] of DROPPERS) {
      const result = await plain.run({
        argv,
        cwd: ws.root,
        env: { PATH: SYSTEM_PATH, HOME: ws.root },
        timeoutMs: 60_000,
        maxOutputBytes: 1 << 20,
        network: false,
      });
      expect(result.exitCode, `${argv.join(" ")}: ${result.stderr}`).toBe(0);
      if (existsSync(path.join(ws.root, dropping))) leftovers.push(dropping);
    }
    expect(leftovers).toEqual(DROPPERS.map(([, , dropping]) => dropping));
    expect(untracked().length).toBeGreaterThanOrEqual(DROPPERS.length);
  });
});

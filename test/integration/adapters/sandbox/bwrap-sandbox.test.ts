import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBwrapSandbox } from "../../../../src/adapters/sandbox/bwrap-sandbox.js";
import { createSandbox } from "../../../../src/adapters/sandbox/create-sandbox.js";
import { runCommand } from "../../../../src/agents/commands/run-command.js";
import type { CommandRequest, Sandbox } from "../../../../src/ports/sandbox.js";
import { SANDBOX_NODE } from "../../../support/sandbox/sandbox-node.js";
import {
  connectScript,
  bwrapSuite,
  fixtureRoot,
  isUnderTmp,
  markerSeconds,
  waitUntilGone,
  commandRequest,
  everyCodeFailed,
  SYSTEM_PATH,
} from "../../../support/sandbox/sandbox-fixtures.js";
import { git, makeTempRepo } from "../../../support/git/temp-repo.js";

const { bwrapPath, bit, skipped } = bwrapSuite();
const skip = bwrapPath === null;

const TOKEN = "ghs_16C7e42F292c6912E7710c838347Ae178B4a";

let root: string;
let repo: string;
let ws: string;
let plain: string;
let home: string;
let sandbox: Sandbox;

beforeAll(async () => {
  if (skip) return;
  root = await fixtureRoot("cfa-bwrap-it-");
  repo = path.join(root, "repo");
  ws = path.join(root, "ws");
  plain = path.join(root, "plain");
  home = path.join(root, "home");
  makeTempRepo({ root, files: { "README.md": "main checkout\n" }, identity: null });
  // What actions/checkout leaves in the repository's config with persist-credentials.
  const extraHeader = ["http.https://github.com/.extraheader", `AUTHORIZATION: basic ${TOKEN}`];
  git(repo, "config", ...extraHeader);
  git(repo, "worktree", "add", "-q", "-b", "cfa/1", ws);
  git(root, "clone", "-q", repo, plain);
  git(plain, "config", ...extraHeader);
  await mkdir(home);
  await writeFile(path.join(home, "secret.txt"), `${TOKEN}\n`);
  sandbox = createBwrapSandbox({ bwrapPath: bwrapPath!, home });
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

const request = (argv: string[], more: Partial<CommandRequest> = {}) =>
  commandRequest(ws, argv, more);

const sh = (script: string, more: Partial<CommandRequest> = {}) =>
  sandbox.run(request(["sh", "-c", script], more));

describe(`bwrap sandbox${skipped}`, () => {
  describe("the workspace is the only writable folder", () => {
    bit("a command can write inside the workspace", async () => {
      const result = await sh("echo hi > inside.txt && mkdir -p sub && echo there > sub/f");
      expect(result.exitCode).toBe(0);
      expect(await readFile(path.join(ws, "inside.txt"), "utf8")).toBe("hi\n");
      expect(await readFile(path.join(ws, "sub", "f"), "utf8")).toBe("there\n");
    });

    bit("a command cannot write to /etc", async () => {
      const target = `/etc/cfa-sandbox-${process.pid}`;
      try {
        const result = await sandbox.run(request(["touch", target]));
        expect(result.exitCode).not.toBe(0);
        expect(result.stderr).toMatch(/Read-only file system/);
        expect(existsSync(target)).toBe(false);
      } finally {
        await rm(target, { force: true }); // should the sandbox ever regress
      }
    });

    bit("a command cannot write to the workspace's parent folder", async () => {
      const result = await sh("echo x > ../escape.txt");
      expect(existsSync(path.join(root, "escape.txt"))).toBe(false);
      // Under /tmp the parent is the private tmpfs: the write lands there and vanishes.
      if (!isUnderTmp(root)) expect(result.exitCode).not.toBe(0);
    });

    bit("a command cannot write to the user's home, nor read what is in it", async () => {
      await sandbox.run(request(["touch", path.join(home, "planted")]));
      expect(existsSync(path.join(home, "planted"))).toBe(false);
      const read = await sandbox.run(request(["cat", path.join(home, "secret.txt")]));
      expect(read.exitCode).not.toBe(0);
      expect(read.stdout).not.toContain(TOKEN);
    });

    bit(
      "the real home of the invoking user is hidden by default, but for its toolchain folders",
      async () => {
        // Meaningful where the home has something to hide, as a runner's or a root's does.
        const realHome = os.homedir();
        const result = await createBwrapSandbox({ bwrapPath: bwrapPath! }).run(
          request(["ls", "-A", realHome]),
        );
        // Absent or empty, or only the runner image's toolchain folders (~/.cargo, ~/.rustup,
        // and the parents of ~/.local/bin and ~/.dotnet/tools) where this machine has them.
        const shown = result.stdout.split("\n").filter((line) => line !== "");
        expect(
          shown.filter((name) => ![".cargo", ".rustup", ".local", ".dotnet"].includes(name)),
        ).toEqual([]);
      },
    );

    bit("the rest of the main checkout is hidden from a worktree", async () => {
      const result = await sandbox.run(request(["ls", "-A", repo]));
      expect(result.stdout.split("\n").filter(Boolean)).toEqual([".git"]);
      const read = await sandbox.run(request(["cat", path.join(repo, "README.md")]));
      expect(read.exitCode).not.toBe(0);
    });

    bit("/tmp is private: what a command leaves there is gone", async () => {
      const name = `cfa-sandbox-tmp-${process.pid}`;
      expect((await sh(`echo x > /tmp/${name} && cat /tmp/${name}`)).stdout).toBe("x\n");
      expect(existsSync(path.join("/tmp", name))).toBe(false);
    });

    bit("even as root, a command cannot remount the system read-write", async () => {
      const target = `/etc/cfa-sandbox-remount-${process.pid}`;
      try {
        const result = await sh(`mount -o remount,rw,bind / && touch ${target}`);
        expect(result.exitCode).not.toBe(0);
        expect(existsSync(target)).toBe(false);
      } finally {
        await rm(target, { force: true }); // should the sandbox ever regress
      }
    });
  });

  describe(".git is read-only and holds no credentials", () => {
    bit("a worktree's .git file, the shared hooks and config cannot be rewritten", async () => {
      const hook = path.join(repo, ".git", "hooks", "pre-commit");
      const result = await sh(
        `echo "gitdir: /elsewhere" > .git; r1=$?; echo "#!/bin/sh" > ${hook}; r2=$?; git config core.hooksPath /x; r3=$?; echo "$r1 $r2 $r3"`,
      );
      expect(everyCodeFailed(result.stdout)).toBe(true);
      expect(await readFile(path.join(ws, ".git"), "utf8")).toMatch(/^gitdir: .*worktrees/);
      expect(existsSync(hook)).toBe(false);
      // `config --get` fails (exit 1) when the key is not set at all.
      expect(() => git(repo, "config", "--get", "core.hooksPath")).toThrow();
    });

    bit("a plain clone's .git directory is read-only, the rest of it writable", async () => {
      const result = await sandbox.run(
        request(
          [
            "sh",
            "-c",
            "touch .git/hooks/post-checkout; echo $?; echo ok > tracked-later.txt; echo $?",
          ],
          { cwd: plain },
        ),
      );
      expect(result.stdout.split("\n").slice(0, 2).map(Number)).toEqual([1, 0]);
      expect(existsSync(path.join(plain, ".git", "hooks", "post-checkout"))).toBe(false);
      expect(existsSync(path.join(plain, "tracked-later.txt"))).toBe(true);
    });

    bit("git still reads the repository inside the sandbox", async () => {
      const log = await sandbox.run(request(["git", "log", "--format=%s"]));
      expect(log.exitCode).toBe(0);
      expect(log.stdout).toBe("initial\n");
      const status = await sandbox.run(
        request(["git", "status", "--porcelain", "--untracked-files=no"]),
      );
      expect(status.exitCode).toBe(0);
    });

    bit("the credentials actions/checkout persists in the config are not visible", async () => {
      const config = await sandbox.run(request(["cat", path.join(repo, ".git", "config")]));
      expect(config.exitCode).toBe(0);
      expect(config.stdout).toContain("[core]");
      expect(config.stdout).not.toContain(TOKEN);
      const list = await sandbox.run(request(["git", "config", "--list"]));
      expect(list.stdout).not.toContain(TOKEN);
      const inClone = await sandbox.run(request(["cat", ".git/config"], { cwd: plain }));
      expect(inClone.stdout).not.toContain(TOKEN);
      // ...while on the host the config is untouched.
      expect(await readFile(path.join(repo, ".git", "config"), "utf8")).toContain(TOKEN);
    });
  });

  describe("the network is unreachable unless allowed", () => {
    let server: net.Server;
    let port: number;
    let accepted = 0;

    beforeAll(async () => {
      server = net.createServer((socket) => {
        accepted += 1;
        socket.end();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as net.AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    const node = (host: string, p: number, network: boolean) =>
      sandbox.run(request([SANDBOX_NODE, "-e", connectScript(host, p)], { network }));

    bit("a command cannot reach a server on the host's loopback", async () => {
      const before = accepted;
      const result = await node("127.0.0.1", port, false);
      expect(result.stdout).toMatch(/^failed/);
      expect(accepted).toBe(before);
    });

    bit("a command cannot reach an outside address", async () => {
      // In an empty network namespace there is no route: nothing leaves the machine.
      const result = await node("1.1.1.1", 53, false);
      expect(result.stdout).toMatch(/^failed/);
    });

    bit("a role with network allowed reaches the host's server", async () => {
      const before = accepted;
      const result = await node("127.0.0.1", port, true);
      expect(result.stdout).toBe("connected\n");
      expect(accepted).toBe(before + 1);
    });
  });

  describe("the environment holds no secret", () => {
    bit("the command sees exactly the request's variables, not the parent's", async () => {
      const saved = {
        GITHUB_TOKEN: process.env.GITHUB_TOKEN,
        ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY,
      };
      process.env.GITHUB_TOKEN = TOKEN;
      process.env.ANTHROPIC_API_KEY = "sk-ant-api03-parent-process-key";
      try {
        const result = await sandbox.run(request(["env"]));
        expect(result.stdout).not.toContain(TOKEN);
        expect(result.stdout).not.toContain("sk-ant-");
        const names = result.stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => line.split("=")[0]);
        // bwrap itself adds PWD, the workspace.
        expect(names.sort()).toEqual(["HOME", "PATH", "PWD"]);
        expect(result.stdout).toContain(`PWD=${ws}\n`);
      } finally {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    });

    bit("runCommand strips GITHUB_TOKEN and ANTHROPIC_API_KEY from a parent env", async () => {
      const result = await runCommand({
        sandbox,
        argv: ["env"],
        workspaceRoot: ws,
        role: {
          allowedCommands: ["env"],
          extraEnv: ["GITHUB_TOKEN", "ANTHROPIC_API_KEY", "GIT_URL"],
        },
        env: {
          PATH: SYSTEM_PATH,
          HOME: "/root",
          GITHUB_TOKEN: TOKEN,
          ANTHROPIC_API_KEY: "sk-ant-api03-abcdefghijklmnop",
          GIT_URL: `https://x-access-token:${TOKEN}@github.com/o/r`,
        },
        timeoutMs: 30_000,
        maxOutputBytes: 100_000,
      });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain(TOKEN);
      expect(result.stdout).not.toContain("sk-ant-");
      // HOME is a private folder outside the worktree, shown at a fixed path.
      expect(result.stdout).toContain("HOME=/home/cfa\n");
    });
  });

  describe("limits", () => {
    bit("the time limit kills the command's whole process tree and reports timedOut", async () => {
      const marker = markerSeconds();
      const result = await sh(`sleep ${marker} & sleep ${marker}`, { timeoutMs: 500 });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      expect(result.signal).toBe("SIGKILL");
      expect(result.durationMs).toBeLessThan(30_000); // killed, not finished
      expect(await waitUntilGone(marker)).toEqual([]);
    });

    bit("stdout is cut at the cap and marked truncated", async () => {
      const result = await sh("yes abc | head -c 100000", { maxOutputBytes: 1000 });
      expect(result.stdout).toHaveLength(1000);
      expect(result.truncated).toBe(true);
      expect(result.timedOut).toBe(false);
      expect(result.exitCode).toBe(0);
    });

    bit("stderr has its own cap", async () => {
      const result = await sh("echo out; yes e | head -c 5000 >&2", { maxOutputBytes: 100 });
      expect(result.stdout).toBe("out\n");
      expect(result.stderr).toHaveLength(100);
      expect(result.truncated).toBe(true);
    });

    bit("an abort signal kills the command and rejects with the signal's reason", async () => {
      const marker = markerSeconds();
      const controller = new AbortController();
      const running = sandbox.run(request(["sleep", marker]), { signal: controller.signal });
      setTimeout(() => controller.abort(new Error("job withdrawn")), 300);
      await expect(running).rejects.toThrow("job withdrawn");
      expect(await waitUntilGone(marker)).toEqual([]);
    });

    bit("the exit code comes through, and a missing program is the command's failure", async () => {
      expect((await sh("exit 3")).exitCode).toBe(3);
      const missing = await sandbox.run(request(["no-such-program-cfa"]));
      expect(missing.exitCode).not.toBe(0);
      expect(missing.stderr).toContain("no-such-program-cfa");
    });
  });

  describe("as root, the process limit needs a pids cgroup", () => {
    it.skipIf(skip || process.getuid?.() !== 0)(
      "without one the command still runs and the gap is said once, not per command",
      async () => {
        const warnings: string[] = [];
        const rooted = createBwrapSandbox({
          bwrapPath: bwrapPath!,
          home,
          pidsCgroup: () => Promise.resolve(null),
          warn: (message) => warnings.push(message),
        });
        expect((await rooted.run(request(["true"]))).exitCode).toBe(0);
        expect((await rooted.run(request(["true"]))).exitCode).toBe(0);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/process limit is not enforced/);
      },
    );
  });

  describe("createSandbox", () => {
    bit('"require" returns a working bwrap sandbox when bwrap works', async () => {
      const required = await createSandbox("require", { home });
      expect(required.kind).toBe("bwrap");
      const result = await required.run(request(["sh", "-c", "echo contained"]));
      expect(result.stdout).toBe("contained\n");
    });
  });
});

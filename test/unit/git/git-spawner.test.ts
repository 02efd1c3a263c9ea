// The git spawner (git-spawner.ts): git commands started by a small helper process run
// exactly as when started here — same bytes in and out, exit codes, stderr — the helper
// carries nothing of the engine's environment, a command in flight when it dies fails (and
// the next one runs), and an idle helper keeps no process alive.

import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitClient } from "../../../src/git/git-client.js";
import { gitSpawnerState, spawnGitProcess } from "../../../src/git/git-spawner.js";
import { bound } from "../../support/time-bound.js";

const dir = mkdtempSync(join(tmpdir(), "cfa-git-spawner-"));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

async function helperUp(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    await spawnGitProcess({ args: ["--version"], cwd: dir, env });
    const pid = gitSpawnerState().helperPid;
    if (pid !== undefined) return pid;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the helper never came up");
}

beforeAll(() => {
  execFileSync("git", ["init", "--quiet", dir]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("git spawner: commands through the helper, not spawned from the main thread", () => {
  it("answers as git does when started here: binary stdin and stdout, exit code, stderr", async () => {
    await helperUp();
    const before = gitSpawnerState();
    const git = gitClient({ baseDir: dir, gitDir: join(dir, ".git") });
    const bytes = Buffer.from([0, 1, 0xff, 0xfe, 10, 13, 0x80]);
    const id = (await git.raw(["hash-object", "-w", "--stdin"], { input: bytes })).trim();
    expect(id).toBe(
      execFileSync("git", ["hash-object", "--stdin"], { cwd: dir, input: bytes }).toString().trim(),
    );
    const blob = await git.run(["cat-file", "blob", id]);
    expect(blob.code).toBe(0);
    expect(Buffer.compare(blob.stdout, bytes)).toBe(0);
    const missing = await git.run(["cat-file", "-e", "0".repeat(40)]);
    expect(missing.code).not.toBe(0);
    await expect(git.raw(["rev-parse", "--verify", "no-such-ref"])).rejects.toThrow(
      /Needed a single revision/u,
    );
    // Each ran in the helper (the runner's config look too), none here.
    expect(gitSpawnerState().helper - before.helper).toBeGreaterThanOrEqual(4);
    expect(gitSpawnerState().here).toBe(before.here);
  });

  it("the helper's environment holds only its channel and a command sees only what it was given (2 checks, 1 positive control)", async () => {
    process.env.CFA_SPAWNER_TEST_SECRET = "ghs_spawnerTestSecret0000000000000000000";
    try {
      const pid = await helperUp();
      // Linux: a process's initial environment (https://man7.org/linux/man-pages/man5/proc_pid_environ.5.html).
      // Node adds its IPC channel's two variables; nothing else is there.
      const entries = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
      expect(entries.map((e) => e.split("=")[0]).sort()).toEqual([
        "NODE_CHANNEL_FD",
        "NODE_CHANNEL_SERIALIZATION_MODE",
      ]);
      const shown = await spawnGitProcess({
        args: ["-c", "alias.env=!env", "env"],
        cwd: dir,
        env: { ...env, CFA_GIVEN: "yes" },
      });
      const text = shown.stdout.toString("utf8");
      expect(text).toContain("CFA_GIVEN=yes");
      expect(text).not.toContain("ghs_spawnerTestSecret");
      // Positive control: a process started with this process's environment carries it.
      const control = spawn(process.execPath, ["-e", "setTimeout(() => {}, 2000)"], {
        stdio: "ignore",
      });
      try {
        await new Promise((r) => setTimeout(r, 100));
        expect(readFileSync(`/proc/${control.pid}/environ`, "utf8")).toContain(
          "ghs_spawnerTestSecret",
        );
      } finally {
        control.kill();
      }
    } finally {
      delete process.env.CFA_SPAWNER_TEST_SECRET;
    }
  });

  it("a command in flight when the helper dies fails, not run twice; the next command runs", async () => {
    const pid = await helperUp();
    const slow = spawnGitProcess({
      args: ["-c", "alias.wait=!sleep 1", "wait"],
      cwd: dir,
      env,
    });
    await new Promise((r) => setTimeout(r, 100));
    process.kill(pid, "SIGKILL");
    await expect(slow).rejects.toThrow(/cannot run git/u);
    const after = await spawnGitProcess({ args: ["--version"], cwd: dir, env });
    expect(after.code).toBe(0);
    expect(after.stdout.toString("utf8")).toMatch(/^git version /u);
    expect(await helperUp()).not.toBe(pid);
  });

  it("an idle helper keeps no process alive: a script that ran git through it exits", async () => {
    const script = [
      `import { spawnGitProcess } from ${JSON.stringify(join(process.cwd(), "src/git/git-spawner.ts"))};`,
      `const env = { PATH: process.env.PATH };`,
      `for (let i = 0; i < 20; i++) await spawnGitProcess({ args: ["--version"], cwd: ".", env });`,
      `await new Promise((r) => setTimeout(r, 300));`,
      `for (let i = 0; i < 3; i++) await spawnGitProcess({ args: ["--version"], cwd: ".", env });`,
      `console.log("done");`,
    ].join("\n");
    const out = execFileSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { cwd: process.cwd(), timeout: bound(20_000) },
    );
    expect(out.toString("utf8").trim()).toBe("done");
  });
});

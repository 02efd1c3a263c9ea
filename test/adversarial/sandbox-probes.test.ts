// A command tries to get out, as a hostile agent's would: reach a host Unix socket or the network,
// see the host's processes or secrets, write outside its workspace, or take the machine's
// processes, memory, disk or CPU. Each probe runs through the real bwrap sandbox (skipped, visibly,
// only where bubblewrap is not installed) and checks the host side too: the socket's server saw no
// connection, the file is not there.

import { execFile, spawn } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bwrapArgs } from "../../src/adapters/sandbox/bwrap-args.js";
import { createBwrapSandbox } from "../../src/adapters/sandbox/bwrap-sandbox.js";
import { discoverSystemRoot } from "../../src/adapters/sandbox/system-root.js";
import { runCommand } from "../../src/agents/commands/run-command.js";
import {
  DEFAULT_COMMAND_LIMITS,
  type CommandLimits,
  type CommandRequest,
  type CommandResult,
  type Sandbox,
} from "../../src/ports/sandbox.js";
import {
  bwrapSuite,
  fixtureRoot,
  commandRequest,
  everyCodeFailed,
  SYSTEM_PATH,
} from "../support/sandbox/sandbox-fixtures.js";
import { makeTempRepo } from "../support/git/temp-repo.js";
import { cases } from "../support/adversarial/count.js";
import { SANDBOX_NODE } from "../support/sandbox/sandbox-node.js";

const { bwrapPath, bit, skipped } = bwrapSuite();
const isRoot = process.getuid?.() === 0;
const TOKEN = "ghs_16C7e42F292c6912E7710c838347Ae178B4a";
const run = promisify(execFile);

let root: string;
let ws: string;
let sandbox: Sandbox;

beforeAll(async () => {
  if (bwrapPath === null) return;
  root = await fixtureRoot("cfa-probes-");
  ws = makeTempRepo({ root, at: "ws", empty: true, identity: null }).repo;
  sandbox = createBwrapSandbox({ bwrapPath });
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

const request = (argv: string[], more: Partial<CommandRequest> = {}) =>
  commandRequest(ws, argv, { timeoutMs: 60_000, ...more });
const sh = (script: string, more: Partial<CommandRequest> = {}): Promise<CommandResult> =>
  sandbox.run(request(["sh", "-c", script], more));
const node = (script: string, more: Partial<CommandRequest> = {}): Promise<CommandResult> =>
  sandbox.run(request([SANDBOX_NODE, "-e", script], more));

/** A node one-liner: connect to a Unix socket path (or "\0name"), print the outcome. */
const connectUnix = (where: string) =>
  `const s = require("net").connect(${JSON.stringify(where)});
s.on("connect", () => { console.log("connected"); process.exit(0); });
s.on("error", (e) => { console.log("failed " + e.code); process.exit(3); });
setTimeout(() => { console.log("failed timeout"); process.exit(4); }, 5000);`;

/**
 * A host server listening on the Unix socket `address` (a path, or "\0name" for an abstract
 * one) answers a connection from the host — the control: a refusal from the sandbox is then
 * the sandbox's doing — and sees none from the sandbox, whose attempt fails as `refused`.
 */
async function expectOnlyTheHostConnects(address: string, refused: RegExp): Promise<void> {
  let accepted = 0;
  const server = net.createServer((s) => {
    accepted += 1;
    s.end();
  });
  await new Promise<void>((resolve) => server.listen(address, resolve));
  try {
    const host = await run(process.execPath, ["-e", connectUnix(address)]).catch(
      (e: { stdout: string }) => e,
    );
    expect(host.stdout).toBe("connected\n");
    const before = accepted;
    const result = await node(connectUnix(address));
    expect(result.stdout).toMatch(refused);
    expect(accepted).toBe(before);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Folders a host socket can be made in here, each a place a host service would use. */
function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
const SOCKET_PLACES: readonly (readonly [string, string])[] = [
  ["/run (system services, docker.sock)", "/run"],
  ["/var/run (the same, by its old name)", "/var/run"],
  ["/tmp (X11, ssh-agent, tmux)", os.tmpdir()],
  ["/var/tmp", "/var/tmp"],
  ["the user's home", os.homedir()],
];
const SOCKET_PLACES_HERE = SOCKET_PLACES.filter(([, folder]) => writable(folder));

describe(
  cases(`sandbox probes: host Unix sockets${skipped}`, SOCKET_PLACES_HERE.length + 1),
  () => {
    bit.each(SOCKET_PLACES_HERE)("a socket in %s cannot be reached", async (_where, folder) => {
      const file = path.join(
        folder,
        `cfa-probe-${process.pid}-${Math.random().toString(36).slice(2)}.sock`,
      );
      try {
        await expectOnlyTheHostConnects(file, /^failed (ENOENT|ECONNREFUSED|EACCES)/);
      } finally {
        await rm(file, { force: true });
      }
    });

    bit("an abstract socket on the host cannot be reached without network", async () => {
      await expectOnlyTheHostConnects(`\0cfa-probe-${process.pid}`, /^failed ECONNREFUSED/);
    });
  },
);

const HOST_FILES: readonly [string, string][] = [
  ["the host's account list", "cat /etc/shadow /etc/gshadow"],
  ["the host's users in passwd", `grep -v -e '^root:' -e '^nobody:' -e '^cfa:' /etc/passwd`],
  ["the host's git config", "cat /etc/gitconfig"],
  ["the host's npm config", "cat /etc/npmrc"],
  ["the host's ssh keys", "ls /etc/ssh"],
  ["the host's TLS private keys", "ls /etc/ssl/private"],
  ["the host's machine id", "cat /etc/machine-id"],
  // A home shows only the runner image's toolchain folders (~/.cargo, ~/.rustup, ~/.local/bin,
  // ~/.dotnet/tools: src/config/read-only-paths.ts), when it has them.
  // /home/cfa is the command's own HOME (its workspace's private folder, empty here).
  ["anything in /home but the command's own home", "ls -A /home | grep -v -x cfa | grep ."],
  [
    "anything in /root but its toolchains",
    "ls -A /root | grep -v -x -e .cargo -e .rustup -e .local -e .dotnet | grep .",
  ],
  ["anything in /run", "ls -A /run | grep ."],
  ["the docker socket", "ls /var/run/docker.sock /run/docker.sock"],
  ["the kernel's /sys", "ls /sys/kernel"],
  ["/var beyond the workspace's path", `ls /var/log /var/lib`],
  ["the host's processes (this test's own)", `cat /proc/${process.pid}/cmdline | grep -a .`],
  ["the host's init command line", "grep -a -v -e bwrap -e prlimit -e sh /proc/1/cmdline"],
];

describe(cases(`sandbox probes: what of the host is visible${skipped}`, HOST_FILES.length), () => {
  bit.each(HOST_FILES)("%s is not", async (_what, script) => {
    const result = await sh(script);
    // Each script prints what it found and succeeds only when it found something.
    expect(result.exitCode, result.stdout + result.stderr).not.toBe(0);
  });
});

describe(
  cases(`sandbox probes: the environment, /proc, privileges and the network${skipped}`, 5),
  () => {
    bit("/proc shows only the sandbox's own few processes", async () => {
      const result = await sh("ls /proc | grep -c '^[0-9]'");
      // bwrap's pid 1, prlimit become sh, ls and grep: a handful, not the host's hundreds.
      expect(Number(result.stdout.trim())).toBeLessThan(10);
    });

    bit(
      "a parent's GITHUB_TOKEN, ANTHROPIC_API_KEY and lookalikes never reach the command",
      async () => {
        const result = await runCommand({
          sandbox,
          argv: [
            "sh",
            "-c",
            "env; cat /proc/self/environ /proc/1/environ 2>/dev/null | tr '\\0' '\\n'",
          ],
          workspaceRoot: ws,
          role: {
            allowedCommands: ["sh"],
            extraEnv: ["GITHUB_TOKEN", "ANTHROPIC_API_KEY", "DEPLOY_URL"],
          },
          env: {
            PATH: SYSTEM_PATH,
            GITHUB_TOKEN: TOKEN,
            ANTHROPIC_API_KEY: "sk-ant-api03-probe-key-0123456789",
            DEPLOY_URL: `https://x-access-token:${TOKEN}@github.com/o/r`,
          },
          timeoutMs: 30_000,
          maxOutputBytes: 100_000,
        });
        expect(result.stdout).not.toContain(TOKEN);
        expect(result.stdout).not.toContain("sk-ant-");
      },
    );

    bit(
      "no privilege can be gained: no capabilities, and setuid programs (sudo) give none",
      async () => {
        // GitHub's Linux runners give the runner user passwordless sudo
        // (https://docs.github.com/en/actions/using-github-hosted-runners/using-github-hosted-runners/about-github-hosted-runners#administrative-privileges):
        // inside the sandbox no_new_privs is set, so a setuid sudo cannot become root, and
        // /etc/sudoers is not shown at all.
        const result = await sh(
          "grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs):' /proc/self/status; ls /etc/sudoers /etc/sudoers.d 2>&1 | grep -c 'No such file'",
        );
        expect(result.stdout).toMatch(/CapPrm:\s+0{16}\n/);
        expect(result.stdout).toMatch(/CapEff:\s+0{16}\n/);
        expect(result.stdout).toMatch(/CapBnd:\s+0{16}\n/);
        expect(result.stdout).toMatch(/NoNewPrivs:\s+1\n/);
        expect(result.stdout.trim().split("\n").at(-1)).toBe("2");
      },
    );

    bit("/proc/sys and /proc/sysrq-trigger cannot be written, even as root", async () => {
      const result = await sh(
        "echo 1 > /proc/sys/kernel/sysrq; a=$?; echo b > /proc/sysrq-trigger; b=$?; echo $a $b",
      );
      expect(everyCodeFailed(result.stdout)).toBe(true);
    });

    bit("no address outside is routable, and no host name resolves", async () => {
      const result = await node(
        `require("dns").lookup("github.com", (e) => { console.log(e ? "dns " + e.code : "dns ok");
       const s = require("net").connect({ host: "140.82.112.3", port: 443 });
       s.on("connect", () => { console.log("connected"); process.exit(0); });
       s.on("error", (e) => { console.log("failed " + e.code); process.exit(3); }); });`,
      );
      expect(result.stdout).toMatch(/^dns E\w+\nfailed E\w+\n$/);
    });
  },
);

const WRITES: readonly [string, string][] = [
  ["/ itself", "/cfa-probe"],
  ["/etc", "/etc/cfa-probe"],
  ["/usr", "/usr/cfa-probe"],
  ["/usr/local/bin", "/usr/local/bin/cfa-probe"],
  ["/opt", "/opt/cfa-probe"],
  ["/home", "/home/cfa-probe"],
  ["/root", "/root/cfa-probe"],
  ["/run", "/run/cfa-probe"],
  ["/var/run", "/var/run/cfa-probe"],
  ["/dev", "/dev/cfa-probe"],
  ["/proc", "/proc/cfa-probe"],
  ["the workspace's parent", "../cfa-probe"],
  ["the repository's .git", ".git/cfa-probe"],
  ["the git hooks", ".git/hooks/pre-commit"],
];

describe(cases(`sandbox probes: writes outside the workspace${skipped}`, WRITES.length), () => {
  bit.each(WRITES)("into %s fail, and nothing appears on the host", async (_where, target) => {
    const result = await sh(`echo planted > ${target}`);
    expect(result.exitCode).not.toBe(0);
    const onHost = path.isAbsolute(target) ? target : path.resolve(ws, target);
    if (
      !["/home", "/root", "/run", "/var/run", "/dev", "/proc"].some(
        (f) => onHost === `${f}/cfa-probe`,
      )
    ) {
      expect(existsSync(onHost)).toBe(false);
    }
  });
});

const MIB = 1024 * 1024;
/** Starts 300 sleeping children at once; prints how many started and how many were refused. */
const BOMB = `const { spawn } = require("child_process");
let started = 0, refused = 0; const kids = [];
for (let i = 0; i < 300; i++) {
  try { const c = spawn("sleep", ["30"], { stdio: "ignore" }); c.on("error", () => {});
    if (c.pid) { started++; kids.push(c); } else refused++; } catch { refused++; }
}
console.log(started + " " + refused);
for (const k of kids) k.kill("SIGKILL");`;
/** Tight limits for the probes that need them, so a test never really uses 512 MiB. */
const tight = (more: Partial<CommandLimits>): CommandLimits => ({
  ...DEFAULT_COMMAND_LIMITS,
  ...more,
});

describe(
  cases(
    `sandbox probes: limits (defaults ${JSON.stringify(DEFAULT_COMMAND_LIMITS)})${skipped}`,
    isRoot ? 8 : 7,
  ),
  () => {
    bit("300 processes are stopped by the default process limit", async () => {
      const result = await node(BOMB, { timeoutMs: 60_000 });
      const [started, refused] = result.stdout.trim().split(" ").map(Number);
      expect(started, result.stdout + result.stderr).toBeLessThan(300);
      expect(started).toBeLessThanOrEqual(DEFAULT_COMMAND_LIMITS.processes);
      // Most did start: it is the limit that refused the rest, not a missing `sleep`.
      expect(started).toBeGreaterThan(DEFAULT_COMMAND_LIMITS.processes / 2);
      expect(refused).toBeGreaterThan(0);
    });

    bit(
      "64 MiB in /tmp are stopped by the default /tmp size, and nothing lands on the host",
      async () => {
        const name = `cfa-probe-fill-${process.pid}`;
        const result = await sh(`head -c 67108864 /dev/zero > /tmp/${name}; echo $?`);
        expect(result.stdout.split("\n")[0]).not.toBe("0");
        // Full, not read-only or absent: the size cap is what stopped it.
        expect(result.stderr).toMatch(/No space left on device/);
        expect(existsSync(path.join(os.tmpdir(), name))).toBe(false);
      },
    );

    bit("64 MiB in /dev/shm are stopped too", async () => {
      const result = await sh("head -c 67108864 /dev/zero > /dev/shm/fill; echo $?");
      expect(result.stdout.trim()).not.toBe("0");
    });

    bit("a file larger than the file-size limit is cut off (SIGXFSZ)", async () => {
      const result = await sh("head -c 3145728 /dev/zero > big.bin; echo $?", {
        limits: tight({ fileSizeMiB: 1 }),
      });
      expect(result.stdout.trim()).not.toBe("0");
      expect((await readFile(path.join(ws, "big.bin"))).length).toBeLessThanOrEqual(MIB);
      await rm(path.join(ws, "big.bin"), { force: true });
    });

    bit("memory past the limit cannot be allocated", async () => {
      const script = `console.log("started"); try { const b = []; for (let i = 0; i < 256; i++) b.push(Buffer.alloc(1 << 20, 1)); console.log("allocated"); } catch (e) { console.log("refused"); }`;
      // Control: under the default limit the same 256 MiB are allocated.
      const control = await node(script);
      expect(control.stdout).toBe("started\nallocated\n");
      const result = await node(script, { limits: tight({ memoryMiB: 128 }) });
      // Node started, then its allocation failed: a thrown error, V8's fatal OOM, or C++'s
      // std::bad_alloc from an allocation outside V8's heap (seen under load).
      expect(result.stdout).toMatch(/^started\n/);
      expect(result.stdout).not.toContain("allocated");
      expect(result.stdout + result.stderr).toMatch(/refused|out of memory|bad_alloc/);
    });

    bit("CPU time past the limit kills the process before the time limit would", async () => {
      const result = await node("for (;;) {}", {
        limits: tight({ cpuSeconds: 1 }),
        timeoutMs: 60_000,
      });
      expect(result.timedOut).toBe(false);
      // The sandbox's pid 1 reports a child killed by a signal as 128 + the signal:
      // SIGKILL (9) at the hard limit, or SIGXCPU (24) at the soft one.
      expect([128 + 9, 128 + 24]).toContain(result.exitCode);
    });

    bit("the limits cannot be raised from inside", async () => {
      const result = await sh(
        "prlimit --nproc=100000:100000 -- true && echo raised; prlimit --nproc --noheadings --output SOFT,HARD",
      );
      expect(result.stdout).not.toContain("raised");
      const n = DEFAULT_COMMAND_LIMITS.processes;
      expect(result.stdout.trim()).toMatch(new RegExp(`^${n}\\s+${n}$`));
    });

    it.skipIf(bwrapPath === null || !isRoot)(
      "as an unprivileged worker (uid 65534), the process limit holds through RLIMIT_NPROC alone",
      async () => {
        // The root path above goes through a pids cgroup; GitHub's runners run as an
        // ordinary user, where the limit is RLIMIT_NPROC in the sandbox's own user namespace.
        const dir = await mkdtemp(path.join("/var/tmp", "cfa-nproc-"));
        try {
          await chmod(dir, 0o755);
          const work = path.join(dir, "ws");
          await mkdir(work);
          await chown(work, 65534, 65534);
          const args = bwrapArgs({
            system: await discoverSystemRoot(),
            cwd: await realpath(work),
            argv: [SANDBOX_NODE, "-e", BOMB],
            env: { PATH: SYSTEM_PATH },
            network: false,
            limits: DEFAULT_COMMAND_LIMITS,
            prlimit: "/usr/bin/prlimit",
            etcFiles: [],
            hide: [],
            readOnly: [],
            overlays: [],
          });
          const out = await new Promise<string>((resolve, reject) => {
            const child = spawn(bwrapPath!, args, {
              uid: 65534,
              gid: 65534,
              cwd: "/",
              stdio: ["ignore", "pipe", "pipe"],
            });
            let text = "";
            child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
            child.on("error", reject);
            child.on("close", () => resolve(text));
          });
          const [started, refused] = out.trim().split(" ").map(Number);
          expect(started).toBeGreaterThan(DEFAULT_COMMAND_LIMITS.processes / 2);
          expect(started).toBeLessThan(DEFAULT_COMMAND_LIMITS.processes);
          expect(refused).toBeGreaterThan(0);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    );
  },
);

import { describe, expect, it } from "vitest";
import {
  bwrapArgs,
  isWithin,
  type BwrapPlan,
} from "../../../../src/adapters/sandbox/bwrap-args.js";
import { DEFAULT_COMMAND_LIMITS } from "../../../../src/ports/sandbox.js";

const base: BwrapPlan = {
  system: {
    folders: ["/usr", "/opt"],
    links: [
      { path: "/bin", target: "usr/bin" },
      { path: "/lib64", target: "usr/lib64" },
    ],
    etc: ["/etc/ld.so.cache", "/etc/ssl/certs"],
    networkEtc: ["/etc/resolv.conf", "/etc/hosts"],
  },
  cwd: "/home/runner/work/repo/.cfa/ws/t1",
  argv: ["git", "status"],
  env: { PATH: "/usr/bin:/bin", HOME: "/home/runner/work/repo/.cfa/ws/t1" },
  network: false,
  limits: DEFAULT_COMMAND_LIMITS,
  prlimit: "/usr/bin/prlimit",
  etcFiles: [{ source: "/tmp/cfa-sandbox-x/etc-passwd", target: "/etc/passwd" }],
  hide: ["/opt/secret-cache"],
  readOnly: ["/home/runner/work/repo/.git", "/home/runner/work/repo/.cfa/ws/t1/.git"],
  overlays: [
    { source: "/tmp/cfa-sandbox-x/config-0", target: "/home/runner/work/repo/.git/config" },
  ],
};

/** Index of the option `flag` whose first operand is `operand`. */
function at(args: string[], flag: string, operand: string): number {
  const i = args.findIndex((a, k) => a === flag && args[k + 1] === operand);
  expect(i, `${flag} ${operand}`).toBeGreaterThanOrEqual(0);
  return i;
}

/** The bwrap options only: everything before the `--` that starts the command. */
const options = (args: string[]) => args.slice(0, args.indexOf("--"));

describe("bwrapArgs: the sandbox's mounts, namespaces, limits and environment", () => {
  const args = bwrapArgs(base);

  it("never binds the host's root: only the allowlisted folders, links and /etc entries", () => {
    const binds = options(args).flatMap((a, i, all) =>
      a === "--ro-bind" || a === "--bind" || a === "--ro-bind-try" ? [all[i + 1]] : [],
    );
    expect(binds).not.toContain("/");
    expect(binds).toEqual([
      "/usr",
      "/opt",
      "/etc/ld.so.cache",
      "/etc/ssl/certs",
      "/tmp/cfa-sandbox-x/etc-passwd",
      "/home/runner/work/repo/.git",
      base.cwd,
      `${base.cwd}/.git`,
      "/tmp/cfa-sandbox-x/config-0",
    ]);
    expect(args[at(args, "--symlink", "usr/bin") + 2]).toBe("/bin");
    expect(args[at(args, "--ro-bind", "/tmp/cfa-sandbox-x/etc-passwd") + 2]).toBe("/etc/passwd");
  });

  it("shows the host's resolver and hosts file only to a command with network", () => {
    expect(options(args)).not.toContain("/etc/resolv.conf");
    const withNet = bwrapArgs({ ...base, network: true });
    expect(at(withNet, "--ro-bind-try", "/etc/resolv.conf")).toBeGreaterThan(0);
    expect(at(withNet, "--ro-bind-try", "/etc/hosts")).toBeGreaterThan(0);
  });

  it("gives /tmp and /dev/shm their own size-capped tmpfs, and makes /dev read-only", () => {
    const bytes = String(DEFAULT_COMMAND_LIMITS.tmpMiB * 1024 * 1024);
    for (const folder of ["/tmp", "/dev/shm"]) {
      const tmpfs = at(args, "--tmpfs", folder);
      expect(args.slice(tmpfs - 2, tmpfs)).toEqual(["--size", bytes]);
    }
    expect(at(args, "--remount-ro", "/dev")).toBeGreaterThan(at(args, "--tmpfs", "/dev/shm"));
    expect(at(args, "--dev", "/dev")).toBeLessThan(at(args, "--tmpfs", "/dev/shm"));
  });

  it("creates /home, /root and /run empty, and /var/run as a link to the empty /run", () => {
    for (const folder of ["/home", "/root", "/run"])
      expect(at(args, "--dir", folder)).toBeGreaterThan(0);
    expect(args[at(args, "--symlink", "../run") + 2]).toBe("/var/run");
  });

  it("makes the root read-only after every mount, so nothing can be created beside them", () => {
    const remount = at(args, "--remount-ro", "/");
    const lastMount = Math.max(
      ...options(args).flatMap((a, i) =>
        /^--(ro-)?bind|^--tmpfs|^--dir|^--symlink/.test(a) ? [i] : [],
      ),
    );
    expect(remount).toBeGreaterThan(lastMount);
  });

  it("binds the workspace writable to its own path and runs there", () => {
    expect(args[at(args, "--bind", base.cwd) + 2]).toBe(base.cwd);
    expect(args[at(args, "--chdir", base.cwd) + 1]).toBe(base.cwd);
  });

  it("hides folders before binding anything into them", () => {
    expect(at(args, "--tmpfs", "/opt/secret-cache")).toBeLessThan(at(args, "--bind", base.cwd));
    expect(at(args, "--tmpfs", "/opt/secret-cache")).toBeGreaterThan(at(args, "--ro-bind", "/opt"));
  });

  it("makes the workspace's .git read-only after the writable bind, so the bind cannot undo it", () => {
    expect(at(args, "--ro-bind", `${base.cwd}/.git`)).toBeGreaterThan(at(args, "--bind", base.cwd));
  });

  it("binds the shared gitdir read-only and overlays its config last", () => {
    const config = at(args, "--ro-bind", "/tmp/cfa-sandbox-x/config-0");
    expect(args[config + 2]).toBe("/home/runner/work/repo/.git/config");
    expect(config).toBeGreaterThan(at(args, "--ro-bind", "/home/runner/work/repo/.git"));
  });

  it("unshares every namespace, including the network, and drops capabilities", () => {
    expect(args).toContain("--unshare-all");
    expect(args).not.toContain("--share-net");
    expect(args).toContain("--die-with-parent");
    expect(args).toContain("--new-session");
    expect(args[args.indexOf("--cap-drop") + 1]).toBe("ALL");
    expect(args[args.indexOf("--hostname") + 1]).toBe("sandbox");
  });

  it("shares the network only when the request allows it", () => {
    const withNet = bwrapArgs({ ...base, network: true });
    expect(withNet.indexOf("--share-net")).toBeGreaterThan(withNet.indexOf("--unshare-all"));
  });

  it("clears the environment, then sets exactly the request's variables", () => {
    const clear = args.indexOf("--clearenv");
    expect(clear).toBeGreaterThan(0);
    const sets = args.flatMap((a, i) => (a === "--setenv" ? [[args[i + 1], args[i + 2]]] : []));
    expect(Object.fromEntries(sets)).toEqual(base.env);
    expect(args.indexOf("--setenv")).toBeGreaterThan(clear);
  });

  it("runs the command through prlimit with every limit, soft and hard alike", () => {
    const command = args.slice(args.indexOf("--") + 1);
    const mib = 1024 * 1024;
    const l = DEFAULT_COMMAND_LIMITS;
    expect(command).toEqual([
      "/usr/bin/prlimit",
      `--nproc=${l.processes}:${l.processes}`,
      `--data=${l.memoryMiB * mib}:${l.memoryMiB * mib}`,
      `--fsize=${l.fileSizeMiB * mib}:${l.fileSizeMiB * mib}`,
      `--cpu=${l.cpuSeconds}:${l.cpuSeconds}`,
      `--nofile=${l.openFiles}:${l.openFiles}`,
      "--core=0:0",
      "--",
      "git",
      "status",
    ]);
  });

  it("ends bwrap's options with `--`, so a program named like an option stays a program", () => {
    const dashed = bwrapArgs({ ...base, argv: ["--bind", "/", "/"] });
    expect(dashed.slice(-4)).toEqual(["--", "--bind", "/", "/"]);
    expect(dashed[dashed.indexOf("--") + 1]).toBe("/usr/bin/prlimit");
  });

  it("keeps a read-only path that holds the workspace before the workspace bind", () => {
    const nested = bwrapArgs({
      ...base,
      readOnly: ["/srv/repo.git", "/srv/repo.git/wt/.git"],
      cwd: "/srv/repo.git/wt",
    });
    expect(at(nested, "--ro-bind", "/srv/repo.git")).toBeLessThan(
      at(nested, "--bind", "/srv/repo.git/wt"),
    );
    expect(at(nested, "--ro-bind", "/srv/repo.git/wt/.git")).toBeGreaterThan(
      at(nested, "--bind", "/srv/repo.git/wt"),
    );
  });
});

describe("isWithin", () => {
  it.each([
    ["/a/b", "/a", true],
    ["/a", "/a", true],
    ["/ab", "/a", false],
    ["/a", "/a/b", false],
    ["/anything", "/", true],
  ])("%s within %s is %s", (target, folder, expected) => {
    expect(isWithin(target, folder)).toBe(expected);
  });
});

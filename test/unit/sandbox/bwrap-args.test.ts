import { describe, expect, it } from "vitest";
import { bwrapArgs, isWithin, type BwrapPlan } from "../../../src/adapters/sandbox/bwrap-args.js";

const base: BwrapPlan = {
  cwd: "/home/runner/work/repo/.cfa/ws/t1",
  argv: ["git", "status"],
  env: { PATH: "/usr/bin:/bin", HOME: "/home/runner/work/repo/.cfa/ws/t1" },
  network: false,
  hide: ["/home/runner", "/home/runner/work/repo"],
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

describe("bwrapArgs: the sandbox's mounts, namespaces and environment", () => {
  const args = bwrapArgs(base);

  it("starts from a read-only root with fresh /dev, /proc and a private /tmp", () => {
    expect(args.slice(0, 9)).toEqual([
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
    ]);
  });

  it("binds the workspace writable to its own path and runs there", () => {
    expect(args[at(args, "--bind", base.cwd) + 2]).toBe(base.cwd);
    expect(args[at(args, "--chdir", base.cwd) + 1]).toBe(base.cwd);
  });

  it("hides folders before binding anything into them", () => {
    const bind = at(args, "--bind", base.cwd);
    expect(at(args, "--tmpfs", "/home/runner")).toBeLessThan(bind);
    expect(at(args, "--tmpfs", "/home/runner/work/repo")).toBeLessThan(
      at(args, "--ro-bind", "/home/runner/work/repo/.git"),
    );
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
    expect(at(args, "--setenv", "PATH")).toBeGreaterThan(clear);
  });

  it("ends options with -- so argv is never read as bwrap options", () => {
    const dashed = bwrapArgs({ ...base, argv: ["--bind", "/", "/"] });
    expect(dashed.slice(-4)).toEqual(["--", "--bind", "/", "/"]);
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

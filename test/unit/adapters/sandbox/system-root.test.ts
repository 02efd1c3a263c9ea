// What of a host the sandbox shows, read from a fake root: the allowlist as that host has it.

import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPidsCgroup } from "../../../../src/adapters/sandbox/pids-cgroup.js";
import { etcFiles } from "../../../../src/adapters/sandbox/etc-files.js";
import { discoverSystemRoot } from "../../../../src/adapters/sandbox/system-root.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "cfa-system-root-"));
  for (const dir of [
    "usr/bin",
    "usr/lib",
    "lib64",
    "etc/ssl/certs",
    "etc/ssl/private",
    "etc/java-17-openjdk",
    "etc/ssh",
    "home/runner",
    "opt",
  ]) {
    await mkdir(path.join(root, dir), { recursive: true });
  }
  await symlink("usr/bin", path.join(root, "bin"));
  await symlink("usr/lib", path.join(root, "lib"));
  for (const file of [
    "etc/ld.so.cache",
    "etc/shadow",
    "etc/gitconfig",
    "etc/npmrc",
    "etc/resolv.conf",
    "etc/hosts",
    "etc/passwd",
  ]) {
    await writeFile(path.join(root, file), "x\n");
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("discoverSystemRoot", () => {
  it("shows /usr (never /opt whole: a self-hosted runner keeps its keys there), the merged-/usr links as links, a real /lib64, and allowlisted /etc only", async () => {
    const shown = await discoverSystemRoot(root);
    expect(shown.folders).toEqual(["/usr", "/lib64"]);
    expect(shown.links).toEqual([
      { path: "/bin", target: "usr/bin" },
      { path: "/lib", target: "usr/lib" },
    ]);
    expect(shown.etc).toEqual(["/etc/ld.so.cache", "/etc/ssl/certs", "/etc/java-17-openjdk"]);
    expect(shown.networkEtc).toEqual(["/etc/resolv.conf", "/etc/hosts"]);
  });

  it("never shows the host's secrets or configuration that runs programs", async () => {
    const shown = await discoverSystemRoot(root);
    const all = [...shown.folders, ...shown.etc, ...shown.networkEtc];
    for (const hidden of [
      "/etc/shadow",
      "/etc/gitconfig",
      "/etc/npmrc",
      "/etc/ssh",
      "/etc/ssl/private",
      "/etc/passwd",
      "/home",
      "/",
    ]) {
      expect(all).not.toContain(hidden);
    }
  });
});

describe("etcFiles", () => {
  it("names the sandbox's own user and no host account", () => {
    const files = etcFiles({ uid: 1001, gid: 1002 }, false);
    expect(files.passwd).toBe(
      "root:x:0:0:root:/root:/bin/sh\ncfa:x:1001:1002:cfa sandbox:/tmp:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
    );
    expect(files.group).toBe("root:x:0:\ncfa:x:1002:\nnogroup:x:65534:\n");
    expect(files.hosts).toMatch(/^127\.0\.0\.1\tlocalhost\n/);
  });

  it("leaves hosts to the host's file when the command has network", () => {
    expect(etcFiles({ uid: 0, gid: 0 }, true)).not.toHaveProperty("hosts");
    expect(etcFiles({ uid: 0, gid: 0 }, true).passwd).not.toContain("cfa:");
  });
});

describe("createPidsCgroup", () => {
  it("makes a child of our v1 pids cgroup with pids.max set", async () => {
    const mount = path.join(root, "cgroup");
    await mkdir(path.join(mount, "pids", "job"), { recursive: true });
    const made = await createPidsCgroup(42, { mount, selfCgroup: "3:cpu:/x\n8:pids:/job\n0::/\n" });
    expect(made?.procs).toMatch(
      new RegExp(`^${mount}/pids/job/cfa-sandbox-\\d+-\\d+/cgroup.procs$`),
    );
    expect(await readFile(path.join(path.dirname(made!.procs), "pids.max"), "utf8")).toBe("42");
  });

  it("uses cgroup v2 only where pids is delegated to our cgroup, else gives up", async () => {
    const mount = path.join(root, "cgroup2");
    await mkdir(path.join(mount, "svc"), { recursive: true });
    await writeFile(path.join(mount, "svc", "cgroup.subtree_control"), "cpu memory\n");
    expect(await createPidsCgroup(9, { mount, selfCgroup: "0::/svc\n" })).toBeNull();
    await writeFile(path.join(mount, "svc", "cgroup.subtree_control"), "cpu pids\n");
    const made = await createPidsCgroup(9, { mount, selfCgroup: "0::/svc\n" });
    expect(made?.procs).toMatch(new RegExp(`^${mount}/svc/cfa-sandbox-`));
  });

  it("gives up where the cgroup filesystem cannot be written", async () => {
    expect(
      await createPidsCgroup(9, { mount: path.join(root, "nowhere"), selfCgroup: "8:pids:/\n" }),
    ).toBeNull();
  });
});

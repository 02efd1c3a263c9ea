// A local npm registry serving what a node_modules folder holds, so a test can install a
// package the way a user does — real npm, over HTTP, resolving its dependencies — without
// reaching the network. npm needs only two requests of a registry: the packument
// (`GET /<name>`, a scoped name as `/@scope%2fname`) and the tarball its `dist.tarball`
// names, checked against `dist.integrity`
// (https://github.com/npm/registry/blob/main/docs/REGISTRY-API.md). Each tarball is the
// installed folder packed again under `package/` (its own node_modules left out): an
// installed package is its tarball's contents, so this is what the registry served.

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

interface Installed {
  /** The installed folder, packed on demand; or the tarball itself, served as it is. */
  dir?: string;
  tarball?: Buffer;
  manifest: Record<string, unknown> & { name: string; version: string };
}

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** Every path asked for, in order. */
  requests: string[];
  /** Names npm asked for that the folder does not hold (answered 404). */
  missing: string[];
  close(): Promise<void>;
}

/** Every package under `nodeModules`, nested ones included; links are not followed. */
function installedPackages(nodeModules: string): Map<string, Installed[]> {
  const found = new Map<string, Installed[]>();
  const add = (dir: string) => {
    let manifest: Installed["manifest"];
    try {
      manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as typeof manifest;
    } catch {
      return;
    }
    if (typeof manifest.name !== "string" || typeof manifest.version !== "string") return;
    const versions = found.get(manifest.name) ?? [];
    if (!versions.some((v) => v.manifest.version === manifest.version)) {
      versions.push({ dir, manifest });
    }
    found.set(manifest.name, versions);
    walk(join(dir, "node_modules"));
  };
  const walk = (folder: string) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue; // links, .bin
      const path = join(folder, entry.name);
      if (entry.name.startsWith("@")) {
        for (const scoped of readdirSync(path, { withFileTypes: true })) {
          if (scoped.isDirectory()) add(join(path, scoped.name));
        }
      } else add(path);
    }
  };
  walk(nodeModules);
  return found;
}

/**
 * Serves every package under `nodeModules`, and `published` tarballs (as `npm pack` made
 * them) as if they had been published.
 */
export async function startLocalRegistry(
  nodeModules: string,
  published: readonly string[] = [],
): Promise<LocalRegistry> {
  const packages = installedPackages(nodeModules);
  for (const path of published) {
    const tgz = readFileSync(path);
    const { stdout } = await run(
      "tar",
      ["--extract", "--gzip", "--to-stdout", `--file=${path}`, "package/package.json"],
      { encoding: "utf8" },
    );
    const manifest = JSON.parse(stdout) as Installed["manifest"];
    packages.set(manifest.name, [{ tarball: tgz, manifest }]);
  }
  const tarballs = new Map<string, Buffer>();
  const requests: string[] = [];
  const missing: string[] = [];
  let base = "";

  async function tarball(pkg: Installed): Promise<Buffer> {
    const key = `${pkg.manifest.name}@${pkg.manifest.version}`;
    let tgz = pkg.tarball ?? tarballs.get(key);
    if (!tgz) {
      const { stdout } = await run(
        "tar",
        [
          "--create",
          "--gzip",
          "--file=-",
          "--exclude=./node_modules",
          "--transform=s,^\\.,package,",
          `--directory=${pkg.dir!}`,
          ".",
        ],
        { encoding: "buffer", maxBuffer: 512 * 1024 * 1024 },
      );
      tgz = stdout;
      tarballs.set(key, tgz);
    }
    return tgz;
  }

  async function packument(name: string): Promise<object | null> {
    const versions = packages.get(name);
    if (!versions) return null;
    const out: Record<string, object> = {};
    for (const pkg of versions) {
      const tgz = await tarball(pkg);
      out[pkg.manifest.version] = {
        ...pkg.manifest,
        dist: {
          tarball: `${base}-/tarball/${encodeURIComponent(name)}/${pkg.manifest.version}.tgz`,
          integrity: `sha512-${createHash("sha512").update(tgz).digest("base64")}`,
          shasum: createHash("sha1").update(tgz).digest("hex"),
        },
      };
    }
    const newest = versions
      .map((v) => v.manifest.version)
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
      .at(-1)!;
    return { name, "dist-tags": { latest: newest }, versions: out };
  }

  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]!);
    requests.push(path);
    const reply = (status: number, body: Buffer | string, type: string) => {
      res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
      res.end(body);
    };
    void (async () => {
      const tgz = /^\/-\/tarball\/(.+)\/([^/]+)\.tgz$/.exec(path);
      if (req.method === "GET" && tgz) {
        const pkg = packages.get(tgz[1]!)?.find((v) => v.manifest.version === tgz[2]);
        if (pkg) return reply(200, await tarball(pkg), "application/octet-stream");
        return reply(404, "{}", "application/json");
      }
      if (req.method === "GET") {
        const body = await packument(path.slice(1));
        if (body) return reply(200, JSON.stringify(body), "application/json");
        missing.push(path.slice(1));
      }
      return reply(404, JSON.stringify({ error: "not found" }), "application/json");
    })().catch((error: unknown) => reply(500, String(error), "text/plain"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: base,
    requests,
    missing,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// A tiny npm registry for tests (a setup's `npm install`, offline): serves packuments and
// tarballs of packages the test builds, from node:http on 127.0.0.1, and counts what it is
// asked. npm needs only `GET /<name>` (the packument: name, dist-tags,
// versions[v].dist.{tarball, integrity, shasum}) and the tarball URL the packument names (npm
// registry docs, "Package metadata":
// https://github.com/npm/registry/blob/main/docs/responses/package-metadata.md). Scoped names
// arrive as /@scope%2fname. Tarballs are `npm pack`'s output format (a gzipped tar of
// package/…), made here with node:zlib and a minimal ustar writer so no npm run is needed.

import { createHash } from "node:crypto";
import http from "node:http";
import { gzipSync } from "node:zlib";

export interface PackageSpec {
  name: string;
  version: string;
  /** Files under package/ besides package.json. */
  files?: Record<string, string>;
  dependencies?: Record<string, string>;
}

/** Two one-file packages: the dependencies of the project the `npm ci` tests install. */
export const TINY_PACKAGES: readonly PackageSpec[] = [
  {
    name: "tiny-add",
    version: "1.0.0",
    files: { "index.js": "module.exports = (a, b) => a + b;\n" },
  },
  {
    name: "tiny-mul",
    version: "2.1.0",
    files: { "index.js": "module.exports = (a, b) => a * b;\n" },
  },
];

export interface NpmRegistry {
  /** What npm should be told: http://<host>/ (the host the proxy maps, or 127.0.0.1:port). */
  readonly port: number;
  /** Every request path, in order. */
  readonly requests: string[];
  /** The packument entry npm needs for a lockfile: resolved URL and integrity. */
  lockEntry(name: string, version: string, host: string): { resolved: string; integrity: string };
  close(): Promise<void>;
}

/** A ustar archive of the files (name → content), each under `package/`. */
export function tarball(files: Record<string, string>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    const body = Buffer.from(content);
    const header = Buffer.alloc(512);
    header.write(`package/${name}`, 0, 100, "utf8");
    header.write("0000644\0", 100);
    header.write("0000000\0", 108);
    header.write("0000000\0", 116);
    header.write(`${body.length.toString(8).padStart(11, "0")}\0`, 124);
    header.write("00000000000\0", 136);
    header.write("        ", 148);
    header.write("0", 156);
    header.write("ustar\0", 257);
    header.write("00", 263);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

export async function startNpmRegistry(
  packages: readonly PackageSpec[],
  options: { host?: string } = {},
): Promise<NpmRegistry> {
  const tarballs = new Map<string, Buffer>();
  const meta = new Map<string, { versions: Record<string, unknown>; latest: string }>();
  const requests: string[] = [];
  const integrity = new Map<string, string>();
  let port = 0;
  const hostName = () => options.host ?? `127.0.0.1:${port}`;

  for (const spec of packages) {
    const manifest = {
      name: spec.name,
      version: spec.version,
      ...(spec.dependencies ? { dependencies: spec.dependencies } : {}),
    };
    const tgz = tarball({ "package.json": JSON.stringify(manifest, null, 2), ...spec.files });
    const file = `${spec.name.split("/").pop() ?? spec.name}-${spec.version}.tgz`;
    tarballs.set(`/${spec.name}/-/${file}`, tgz);
    const sri = `sha512-${createHash("sha512").update(tgz).digest("base64")}`;
    integrity.set(`${spec.name}@${spec.version}`, sri);
    const entry = meta.get(spec.name) ?? { versions: {}, latest: spec.version };
    entry.versions[spec.version] = {
      ...manifest,
      dist: { tarball: file, integrity: sri, shasum: createHash("sha1").update(tgz).digest("hex") },
    };
    entry.latest = spec.version;
    meta.set(spec.name, entry);
  }

  const server = http.createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? "/").split("?")[0] ?? "/");
    requests.push(url);
    const tgz = tarballs.get(url);
    if (tgz) {
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(tgz);
      return;
    }
    const entry = meta.get(url.slice(1));
    if (!entry) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
      return;
    }
    const name = url.slice(1);
    const versions = Object.fromEntries(
      Object.entries(entry.versions).map(([v, m]) => {
        const dist = (m as { dist: { tarball: string } }).dist;
        return [
          v,
          {
            ...(m as object),
            dist: { ...dist, tarball: `http://${hostName()}/${name}/-/${dist.tarball}` },
          },
        ];
      }),
    );
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ name, "dist-tags": { latest: entry.latest }, versions }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;

  return {
    port,
    requests,
    lockEntry(name, version, host) {
      const file = `${name.split("/").pop() ?? name}-${version}.tgz`;
      return {
        resolved: `http://${host}/${name}/-/${file}`,
        integrity: integrity.get(`${name}@${version}`) ?? "",
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A real-shaped project depending on the registry's packages: package.json and a
 * package-lock.json (lockfileVersion 3) pointing at `host`, so `npm ci` installs exactly these.
 */
export function projectFiles(
  registry: NpmRegistry,
  host: string,
  deps: readonly PackageSpec[],
): Record<string, string> {
  const dependencies = Object.fromEntries(deps.map((d) => [d.name, d.version]));
  const pkg = {
    name: "tiny-app",
    version: "1.0.0",
    private: true,
    dependencies,
    scripts: { test: "node test.js" },
  };
  const lock = {
    name: "tiny-app",
    version: "1.0.0",
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { name: "tiny-app", version: "1.0.0", dependencies },
      ...Object.fromEntries(
        deps.map((d) => [
          `node_modules/${d.name}`,
          { version: d.version, ...registry.lockEntry(d.name, d.version, host) },
        ]),
      ),
    },
  };
  return {
    "package.json": `${JSON.stringify(pkg, null, 2)}\n`,
    "package-lock.json": `${JSON.stringify(lock, null, 2)}\n`,
  };
}

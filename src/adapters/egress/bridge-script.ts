// What runs inside a sandbox whose role has a host list, before the command: a forwarder
// from 127.0.0.1:EGRESS_PORT in the sandbox's own network namespace to the egress proxy's
// Unix socket bound into it, then the command as its child. It is plain CommonJS run by
// the engine's own `node` binary (bound read-only at a private path), so it needs nothing
// the runner lacks (no socat). It decides nothing: a command that kills it loses the
// network (and ends, as the sandbox's first process), one that listens on the port itself
// reaches the same socket, and the proxy on the host judges every request.

/** The port inside the sandbox (its namespace is empty: any port is free). 3128 is squid's. */
export const EGRESS_PORT = 3128;

/** Where the bridge's pieces appear inside the sandbox (/run is an empty folder there). */
export const EGRESS_DIR = "/run/cfa-egress";
export const EGRESS_SOCKET = `${EGRESS_DIR}/proxy.sock`;
export const EGRESS_NODE = `${EGRESS_DIR}/node`;
export const EGRESS_BRIDGE = `${EGRESS_DIR}/bridge.cjs`;

export const BRIDGE_SCRIPT = `"use strict";
// cfa-bot's egress bridge: 127.0.0.1:PORT -> the proxy's Unix socket, then the command.
const net = require("node:net");
const os = require("node:os");
const { spawn } = require("node:child_process");
const [port, socketPath, ...argv] = process.argv.slice(2);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  const stop = () => { client.destroy(); upstream.destroy(); };
  client.on("error", stop);
  upstream.on("error", stop);
  client.pipe(upstream);
  upstream.pipe(client);
});
// Before it listens, an error is the bridge's own (the port taken): the command cannot run.
// After, it is an accept failing (EMFILE when a command floods it): that connection is lost,
// the others and the command go on.
let listening = false;
server.on("error", (error) => {
  if (listening) return;
  process.stderr.write("cfa egress bridge: " + error.message + "\\n");
  process.exit(125);
});
server.listen({ host: "127.0.0.1", port: Number(port) }, () => {
  listening = true;
  const child = spawn(argv[0], argv.slice(1), { stdio: "inherit" });
  child.on("error", (error) => {
    process.stderr.write("cfa egress bridge: cannot run " + argv[0] + ": " + error.message + "\\n");
    process.exit(error.code === "ENOENT" ? 127 : 126);
  });
  child.on("exit", (code, signal) => {
    process.exit(code === null ? 128 + (os.constants.signals[signal] || 0) : code);
  });
  for (const name of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(name, () => child.kill(name));
});
`;

/**
 * The variables that point a command's tools at the bridge. They only name a port on the
 * sandbox's own loopback: unsetting or changing them loses the network, never widens it.
 * - HTTP_PROXY / HTTPS_PROXY and lower case: curl, git, pip (requests), Go (net/http
 *   ProxyFromEnvironment), cargo (its http.proxy falls back to them), .NET, Ruby.
 * - npm_config_proxy / npm_config_https_proxy: npm's `proxy` and `https-proxy` settings
 *   (npm reads npm_config_* variables as config), so an .npmrc's own proxy is overridden.
 * - YARN_HTTP_PROXY / YARN_HTTPS_PROXY: Yarn's httpProxy / httpsProxy settings.
 * - ALL_PROXY: curl's proxy for every scheme.
 * - JAVA_TOOL_OPTIONS: the JVM reads it at start; http(s).proxyHost/Port are the JDK's
 *   networking properties (Maven and Gradle ignore the *_PROXY variables).
 * - NO_PROXY: the sandbox's own loopback stays direct (a test server a command starts).
 */
export function proxyEnv(existing: Readonly<Record<string, string>>): Record<string, string> {
  const url = `http://127.0.0.1:${EGRESS_PORT}`;
  const local = "localhost,127.0.0.1,::1";
  const jvm = [
    "-Dhttp.proxyHost=127.0.0.1",
    `-Dhttp.proxyPort=${EGRESS_PORT}`,
    "-Dhttps.proxyHost=127.0.0.1",
    `-Dhttps.proxyPort=${EGRESS_PORT}`,
    "-Dhttp.nonProxyHosts=localhost|127.0.0.1",
  ].join(" ");
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: local,
    no_proxy: local,
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    YARN_HTTP_PROXY: url,
    YARN_HTTPS_PROXY: url,
    JAVA_TOOL_OPTIONS: existing.JAVA_TOOL_OPTIONS ? `${existing.JAVA_TOOL_OPTIONS} ${jvm}` : jvm,
  };
}

// Egress by ecosystem under attack: a command given `network: [node]` tries to get anywhere else —
// by dropping the proxy's variables, connecting directly, talking to the proxy's socket itself,
// killing or replacing the bridge, rewriting what is bound in, spelling hosts so a naive check
// passes them, or smuggling a request past the check. The proxy on the host is the only way out and
// judges every request; the bridge in the sandbox only forwards. Positive controls: the same direct
// connection works with the host's network shared (`network: true`), and the same spelling tricks
// reach the registry when they name it.

import { describe, expect } from "vitest";
import type { CommandResult, Sandbox } from "../../src/ports/sandbox.js";
import type { NpmRegistry } from "../support/npm-registry/npm-registry.js";
import {
  useEgressWorld,
  nodeScript,
  REGISTRY_HOST,
  runIn,
  tcpScript,
} from "../support/egress/egress-sandbox.js";
import { cases } from "../support/adversarial/count.js";

let ws: string;
let registry: NpmRegistry;
let sandbox: Sandbox;
const { bit, skipped } = useEgressWorld(
  "cfa-egress-adv-",
  (world) => ({ ws, registry, sandbox } = world),
);

const SOCKET = "/run/cfa-egress/proxy.sock";
/** A node script sending raw bytes to a Unix socket or TCP port and printing the first line back. */
const raw = (target: { path: string } | { port: number }, bytes: string) =>
  nodeScript(`const s = require("net").connect(${JSON.stringify(
    "path" in target ? { path: target.path } : { host: "127.0.0.1", port: target.port },
  )});
s.on("connect", () => s.write(${JSON.stringify(bytes)}));
let out = ""; s.on("data", (d) => { out += d; });
s.on("close", () => { console.log(out.split("\\r\\n")[0] || "closed"); process.exit(0); });
s.on("error", (e) => { console.log("failed " + e.code); process.exit(3); });
setTimeout(() => { console.log((out.split("\\r\\n")[0] || "silent")); process.exit(0); }, 3000);`);

/** Ways out that must all fail, with nothing reaching the registry unless named so. */
const ESCAPES: readonly [string, string[]][] = [
  [
    "the proxy variables unset, curl direct",
    [
      "env",
      "-i",
      "PATH=/usr/bin:/bin",
      "curl",
      "-sS",
      "--max-time",
      "5",
      `http://${REGISTRY_HOST}/left-pad`,
    ],
  ],
  [
    "a direct TCP connection to the host's loopback registry",
    nodeScript(tcpScript("127.0.0.1", 0)),
  ],
  ["a direct TCP connection over IPv6 loopback", nodeScript(tcpScript("::1", 0))],
  ["a direct connection to an outside address", nodeScript(tcpScript("192.0.2.1", 443))],
  [
    "CONNECT to another host through the socket itself",
    raw({ path: SOCKET }, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"),
  ],
  [
    "an absolute URI to another host with the allowed name in Host",
    raw({ path: SOCKET }, `GET http://example.com/ HTTP/1.1\r\nHost: ${REGISTRY_HOST}\r\n\r\n`),
  ],
  [
    "CONNECT to the allowed name on another port",
    raw({ port: 3128 }, `CONNECT ${REGISTRY_HOST}:22 HTTP/1.1\r\n\r\n`),
  ],
  [
    "userinfo that names the allowed host before the real one",
    ["curl", "-sS", `http://${REGISTRY_HOST}@example.com/left-pad`],
  ],
  [
    "the allowed name as a prefix of another",
    ["curl", "-sS", `http://${REGISTRY_HOST}.example.com/left-pad`],
  ],
  [
    "the allowed name as a suffix without a dot",
    ["curl", "-sS", `http://evil${REGISTRY_HOST}/left-pad`],
  ],
  [
    "an https URI sent in the clear to the proxy",
    raw({ port: 3128 }, `GET https://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n`),
  ],
  [
    "origin-form, as if the proxy were the server",
    raw({ port: 3128 }, `GET /left-pad HTTP/1.1\r\nHost: ${REGISTRY_HOST}\r\n\r\n`),
  ],
  ["a SOCKS5 handshake on the proxy's port", raw({ port: 3128 }, "\u0005\u0001\u0000")],
  [
    "a WebSocket upgrade to another host",
    raw(
      { port: 3128 },
      "GET http://example.com/ws HTTP/1.1\r\nHost: example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    ),
  ],
  [
    "a second request on a kept-alive connection, to another host",
    raw(
      { port: 3128 },
      `GET http://${REGISTRY_HOST}/nothing HTTP/1.1\r\nHost: ${REGISTRY_HOST}\r\n\r\nGET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n`,
    ),
  ],
  [
    "the proxy's socket removed or replaced",
    [
      "sh",
      "-c",
      `rm -f ${SOCKET} || ln -sf /tmp/x ${SOCKET}; ls -l ${SOCKET}; test ! -S ${SOCKET}`,
    ],
  ],
  [
    "the bridge script rewritten",
    ["sh", "-c", "echo 'require(\"net\")' > /run/cfa-egress/bridge.cjs"],
  ],
  [
    "the bridge killed, then the registry asked",
    ["sh", "-c", `kill -9 $PPID; sleep 1; curl -sS --max-time 5 http://${REGISTRY_HOST}/left-pad`],
  ],
  [
    "a second forwarder on another port, asked for another host",
    [
      "sh",
      "-c",
      `node -e 'const n=require("net");n.createServer(c=>{const u=n.connect("${SOCKET}");c.pipe(u);u.pipe(c)}).listen(3129,"127.0.0.1",()=>{require("child_process").execFile("curl",["-sS","-x","http://127.0.0.1:3129","http://example.com/"],(e,o)=>{console.log(o);process.exit(0)})})'`,
    ],
  ],
];

const reachedOther = (result: CommandResult) =>
  /Example Domain|HTTP\/1\.1 200/.test(result.stdout) && !result.stdout.includes("left-pad");

describe(cases(`egress escapes with network: [node]${skipped}`, ESCAPES.length), () => {
  bit.each(ESCAPES)(
    "%s: fails, and the registry hears nothing it was not asked by name",
    async (what, template) => {
      // The loopback probes need the registry's real port, known only now.
      const argv = template.map((arg) => arg.replace("port: 0 }", `port: ${registry.port} }`));
      const before = registry.requests.length;
      const result = await runIn(sandbox, ws, ["node"], argv);
      const heard = registry.requests.slice(before);
      expect(reachedOther(result), `${what}: ${result.stdout}${result.stderr}`).toBe(false);
      if (what.startsWith("a second request on a kept-alive")) {
        // The first (allowed) request reaches the registry; the second never leaves.
        expect(heard).toEqual(["/nothing"]);
        expect(result.blocked).toEqual([
          expect.objectContaining({ host: "example.com", reason: "not-allowed" }),
        ]);
      } else {
        expect(heard, `${what}: ${result.stdout}`).toEqual([]);
      }
      if (what.startsWith("the proxy's socket") || what.startsWith("the bridge script")) {
        expect(result.exitCode).not.toBe(0);
      }
    },
  );

  bit(
    "what reaches the proxy and is refused is recorded, with the command that sent it",
    async () => {
      const argv = raw({ path: SOCKET }, "CONNECT example.com:443 HTTP/1.1\r\n\r\n");
      const result = await runIn(sandbox, ws, ["node"], argv);
      expect(result.stdout.trim()).toBe("HTTP/1.1 403 Forbidden");
      expect(result.blocked).toEqual([
        {
          host: "example.com",
          port: 443,
          protocol: "https",
          reason: "not-allowed",
          command: argv,
          count: 1,
        },
      ]);
    },
  );

  bit("the Host a request carries is rewritten to the URI's host the proxy checked", async () => {
    const result = await runIn(
      sandbox,
      ws,
      ["node"],
      ["curl", "-sS", "-H", "Host: example.com", `http://${REGISTRY_HOST}/left-pad`],
    );
    expect(result.stdout).toContain('"left-pad"');
    // The stand-in builds tarball URLs from its configured name, so check what it was sent:
    // a request reached it, for the allowed name only.
    expect(registry.requests.at(-1)).toBe("/left-pad");
  });
});

const CONTROLS: readonly [string, string[]][] = [
  [
    "a direct TCP connection to the host's loopback registry, with the host's network shared",
    nodeScript(tcpScript("127.0.0.1", 0)),
  ],
  [
    "the allowed name in other spellings (upper case, a trailing dot)",
    [
      "sh",
      "-c",
      `curl -sS http://REGISTRY.NPMJS.ORG/left-pad && curl -sS http://${REGISTRY_HOST}./left-pad`,
    ],
  ],
];

describe(cases(`egress positive controls${skipped}`, CONTROLS.length), () => {
  bit.each(CONTROLS)("%s: gets through", async (what, template) => {
    const argv = template.map((arg) => arg.replace("port: 0 }", `port: ${registry.port} }`));
    const shared = what.includes("network shared");
    const result = await runIn(sandbox, ws, shared ? true : ["node"], argv);
    if (shared) expect(result.stdout.trim()).toBe("connected");
    else expect(result.stdout.match(/"left-pad"/g)?.length).toBeGreaterThanOrEqual(2);
  });
});

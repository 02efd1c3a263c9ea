// The egress proxy: the one way out of a sandbox whose role has a host list.
// It runs in the engine's process, outside anything a command can change, and listens on a
// Unix socket that is bound into that one command's sandbox (the sandbox keeps its own empty
// network namespace; bridge-script.ts forwards 127.0.0.1:PORT inside to the socket). One
// proxy per command: a refusal is the command's by construction, never by anything the
// command says about itself.
//
// HTTPS is judged by the CONNECT authority, plain HTTP by the absolute-form URI's host
// (RFC 9112 §3.2.2: a proxy is sent the absolute URI, and forwards with Host rewritten to it,
// so a Host header cannot name another site on the same address). The name checked is the
// name resolved, once, and the address that passes the address check is the one dialled.
// Anything else — another host or port, bytes that are not an HTTP proxy request, an https
// URI without CONNECT, an upgrade — is refused; refusals are recorded as BlockedRequest.
// Not seen inside a CONNECT tunnel: the TLS inside it (so a server reached by an allowed
// name that serves other names, a CDN, serves them too: domain fronting is not stopped).
//
// Why not @anthropic-ai/sandbox-runtime's proxy: its SandboxManager is one process-wide
// configuration (one allowlist for every command, where ours is per role), it attributes a
// refusal to a command by a Proxy-Authorization name the command itself sends, and its
// Linux bridge needs socat on the host and in the sandbox (GitHub's ubuntu-24.04 image does
// not list it). Its address classes are taken (denied-address.ts), and its environment
// variables list informed bridge-script.ts.

import { lookup } from "node:dns/promises";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { connect, isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { BlockReason, BlockedRequest } from "../../ports/sandbox.js";
import { processConnectionBudget, type ConnectionBudget } from "./connection-budget.js";
import { deniedAddressReason } from "./denied-address.js";
import { canonicalHost, hostMatcher } from "./host-pattern.js";
import { namedTarget, recordedHost } from "./named-target.js";
import { RefusalLog } from "./refusal-log.js";

export interface Upstream {
  address: string;
  port: number;
}

/**
 * Where an allowed host:port is dialled. Throws AddressRefusedError to refuse it (recorded),
 * any other error for a host that cannot be reached (answered 502, not a refusal).
 */
export type ResolveUpstream = (host: string, port: number) => Promise<Upstream>;

export class AddressRefusedError extends Error {
  override readonly name = "AddressRefusedError";
}

/** DNS, keeping only addresses deniedAddressReason allows; the first of those is dialled. */
export const resolveByDns: ResolveUpstream = async (host, port) => {
  const answers = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
  let why: string | null = null;
  for (const { address } of answers) {
    why = deniedAddressReason(address);
    if (why === null) return { address, port };
  }
  throw new AddressRefusedError(`${host} resolves to ${why ?? "no address"}`);
};

export interface EgressProxyOptions {
  /** Where to listen: a path in a folder only the engine can write. */
  socketPath: string;
  /** Host patterns (src/ports/sandbox.ts NetworkAccess). */
  hosts: readonly string[];
  /** The command this proxy serves, for its records. */
  command: readonly string[];
  /** Default resolveByDns. Tests map names to local servers here, never inside the sandbox. */
  resolve?: ResolveUpstream;
  /** Kinds of refusal listed (identical ones counted, the rest under "others"); default 100. */
  maxBlocked?: number;
  /** What one command may hold of the proxy; DEFAULT_EGRESS_LIMITS where absent. */
  limits?: Partial<EgressLimits>;
  /** What every proxy of this process may hold together; default the process's budget. */
  budget?: ConnectionBudget;
}

/**
 * A command's share of its proxy. Past `connections` open, or `pending` not yet through their
 * request head, a new connection is cut at once and recorded (reason `limit`); so is one
 * that takes longer than `headerTimeoutMs` to send its head. A connection or tunnel silent
 * both ways for `idleTimeoutMs` is closed.
 */
export interface EgressLimits {
  connections: number;
  pending: number;
  headerTimeoutMs: number;
  idleTimeoutMs: number;
}

/**
 * Far above what package managers open: npm's `maxsockets` is 15 per origin
 * (https://docs.npmjs.com/cli/v11/using-npm/config#maxsockets), pnpm's
 * `network-concurrency` 16 (https://pnpm.io/settings#networkconcurrency), pip's pool 10.
 * Idle: npm's own `fetch-timeout` is 5 minutes. A request head comes in one write.
 */
export const DEFAULT_EGRESS_LIMITS: Readonly<EgressLimits> = {
  connections: 128,
  pending: 32,
  headerTimeoutMs: 10_000,
  idleTimeoutMs: 300_000,
};

/** Pending connections allowed for a cap on open ones: a quarter, at least 4. */
export function pendingFor(connections: number): number {
  return Math.max(4, Math.floor(connections / 4));
}

export interface EgressProxy {
  /** Refusals so far, least recently seen first, then the "others" entries (refusal-log.ts). */
  blocked(): BlockedRequest[];
  /** Client connections open now (for tests and the flood's numbers). */
  readonly open: number;
  /** Requests let through so far (HTTP requests and CONNECT tunnels). */
  readonly allowed: number;
  /** Stops listening and cuts every open connection. */
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
]);

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  // Loaded with the first proxy, not with the sandbox: importing node:http as an ES module
  // reads every export it has, undici's (fetch, WebSocket) included, ~40 ms of every
  // process start, and most processes (`cfa demo`, a job whose roles have no network) never
  // start a proxy.
  const http = await import("node:http");
  const allowedHost = hostMatcher(options.hosts);
  const resolve = options.resolve ?? resolveByDns;
  const limits = { ...DEFAULT_EGRESS_LIMITS, ...options.limits };
  const budget = options.budget ?? processConnectionBudget();
  const refusals = new RefusalLog(options.command, options.maxBlocked ?? 100);
  const sockets = new Set<Socket | Duplex>();
  /** Accepted connections that have not yet sent a whole request head. */
  const pending = new Set<Socket | Duplex>();
  let open = 0;
  let allowed = 0;

  const record = (
    host: string,
    port: number,
    protocol: BlockedRequest["protocol"],
    reason: BlockReason,
  ): void => refusals.record(recordedHost(host), port, protocol, reason);
  const message = (host: string, port: number, reason: BlockReason, detail = ""): string => {
    switch (reason) {
      case "not-allowed":
        return `cfa egress proxy: ${host}:${port} is not on this role's network list (network: in .github/cfa.yml)\n`;
      case "address":
        return `cfa egress proxy: ${host}:${port} refused: ${detail}\n`;
      case "protocol":
        return `cfa egress proxy: not an HTTP proxy request${detail ? ` (${detail})` : ""}\n`;
      case "limit":
        return `cfa egress proxy: past this command's connection limit (${detail})\n`;
      default: {
        const unreachable: never = reason;
        return unreachable;
      }
    }
  };

  /** Allowed and resolved, or refused (recorded and answered by `refuse`). */
  const decide = async (
    host: string,
    port: number,
    protocol: "http" | "https",
    refuse: (status: number, text: string) => void,
  ): Promise<Upstream | null> => {
    if (!allowedHost(host, port)) {
      record(host, port, protocol, "not-allowed");
      refuse(403, message(host, port, "not-allowed"));
      return null;
    }
    try {
      return await resolve(host, port);
    } catch (error) {
      if (error instanceof AddressRefusedError) {
        record(host, port, protocol, "address");
        refuse(403, message(host, port, "address", error.message));
      } else {
        refuse(502, `cfa egress proxy: cannot reach ${host}:${port}\n`);
      }
      return null;
    }
  };

  // requestTimeout 0: a download may take long while it moves; idleness is what is cut.
  // A connection's first head is timed below (and the cut recorded); Node's headersTimeout,
  // checked every connectionsCheckingInterval (30 s by default), times a kept-alive
  // connection's later heads, a little after ours so the first is always ours to record.
  const server = http.createServer({
    requestTimeout: 0,
    headersTimeout: limits.headerTimeoutMs + 1000,
    connectionsCheckingInterval: Math.min(1000, limits.headerTimeoutMs),
  });
  const started = (socket: Socket | Duplex) => pending.delete(socket);
  server.on("connection", (socket: Socket) => {
    // Cut before anything is read: the command's share or the process's budget is spent.
    if (open >= limits.connections || pending.size >= limits.pending || !budget.take()) {
      record("", 0, "tcp", "limit");
      socket.destroy();
      return;
    }
    open += 1;
    sockets.add(socket);
    pending.add(socket);
    const slow = setTimeout(() => {
      if (!pending.has(socket)) return;
      record("", 0, "tcp", "limit");
      socket.destroy();
    }, limits.headerTimeoutMs);
    slow.unref();
    socket.setTimeout(limits.idleTimeoutMs, () => socket.destroy());
    socket.once("close", () => {
      clearTimeout(slow);
      open -= 1;
      budget.give();
      sockets.delete(socket);
      pending.delete(socket);
    });
  });

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    started(req.socket);
    void (async () => {
      const refuse = (status: number, text: string) => {
        req.resume();
        res.writeHead(status, { "content-type": "text/plain", connection: "close" }).end(text);
      };
      let url: URL | null = null;
      try {
        url = new URL(req.url ?? "");
      } catch {
        url = null;
      }
      if (url === null || url.protocol !== "http:") {
        // Origin form (someone talking to the proxy as if it were a server) or an https URI
        // sent in the clear: not a request a proxy forwards.
        const host = recordedHost(
          url?.hostname ?? String(req.headers.host ?? "").split(":")[0] ?? "",
        );
        const port = url?.port ? Number(url.port) : url?.protocol === "https:" ? 443 : 80;
        record(host, port, "http", "protocol");
        refuse(
          400,
          message(host, port, "protocol", "send an absolute http:// URI, or CONNECT for https"),
        );
        return;
      }
      const host = canonicalHost(url.hostname);
      const port = url.port ? Number(url.port) : 80;
      const upstream = await decide(host, port, "http", refuse);
      if (upstream === null) return;
      allowed += 1;
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
      }
      headers.host = url.host;
      const out = http.request({
        host: upstream.address,
        port: upstream.port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: false,
        agent: false,
        timeout: limits.idleTimeoutMs,
      });
      out.on("timeout", () => out.destroy());
      out.on("response", (answer) => {
        const back: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (!HOP_BY_HOP.has(name) && value !== undefined) back[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, back);
        answer.pipe(res);
      });
      out.on("error", () => {
        if (!res.headersSent) refuse(502, `cfa egress proxy: cannot reach ${host}:${port}\n`);
        else res.destroy();
      });
      req.pipe(out);
    })();
  });

  server.on("connect", (req: IncomingMessage, client: Duplex, head: Buffer) => {
    started(client);
    client.on("error", () => client.destroy());
    void (async () => {
      const target = parseAuthority(req.url ?? "");
      const refuse = (status: number, text: string) => {
        const reason =
          status === 403 ? "Forbidden" : status === 400 ? "Bad Request" : "Bad Gateway";
        client.end(
          `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
        );
      };
      if (target === null) {
        const named = namedTarget(Buffer.from(`CONNECT ${req.url ?? ""} HTTP/1.1\r\n`));
        record(named?.host ?? recordedHost(req.url ?? ""), named?.port ?? 0, "https", "protocol");
        refuse(400, message("", 0, "protocol", "CONNECT needs host:port"));
        return;
      }
      const upstream = await decide(target.host, target.port, "https", refuse);
      if (upstream === null) return;
      allowed += 1;
      const remote = connect(upstream.port, upstream.address);
      sockets.add(remote);
      remote.setTimeout(limits.idleTimeoutMs, () => remote.destroy());
      remote.on("close", () => {
        sockets.delete(remote);
        client.destroy();
      });
      client.on("close", () => remote.destroy());
      remote.once("connect", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) remote.write(head);
        remote.pipe(client);
        client.pipe(remote);
      });
      remote.on("error", () => {
        if (remote.connecting)
          refuse(502, `cfa egress proxy: cannot reach ${target.host}:${target.port}\n`);
        client.destroy();
      });
    })();
  });

  // Bytes the HTTP parser refuses: raw TCP or SOCKS on the proxy's port, TLS sent to it in
  // the clear, a malformed request. Recorded under what those bytes named (named-target.ts).
  server.on(
    "clientError",
    (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
      started(socket);
      if (String(error.code ?? "").startsWith("HPE_")) {
        const named = namedTarget(error.rawPacket);
        record(named?.host ?? "", named?.port ?? 0, named?.protocol ?? "tcp", "protocol");
      }
      socket.destroy();
    },
  );
  // An Upgrade (WebSocket) request: not forwarded; Node closes the socket without a handler.
  server.on("upgrade", (req: IncomingMessage, socket: Duplex) => {
    started(socket);
    const named = namedTarget(
      Buffer.from(
        `${req.method ?? "GET"} ${req.url ?? ""} HTTP/1.1\r\nhost: ${String(req.headers.host ?? "")}\r\n`,
      ),
    );
    record(named?.host ?? "", named?.port ?? 80, "http", "protocol");
    socket.end("HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n");
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(options.socketPath, () => {
      server.off("error", reject);
      resolveListen();
    });
  });

  return {
    blocked: () => refusals.entries(),
    get allowed() {
      return allowed;
    },
    get open() {
      return open;
    },
    close: () =>
      new Promise<void>((resolveClose) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolveClose());
      }),
  };
}

/** `host:port` or `[v6]:port` of a CONNECT, canonical; null when it is neither. */
function parseAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:/\s[\]@]+):(\d{1,5})$/.exec(authority.trim());
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: canonicalHost(m[1] ?? ""), port };
}

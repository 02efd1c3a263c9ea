// GitHub's git side over HTTP, for tests that must see what git sends: `git http-backend`
// (git's own smart-HTTP server, https://git-scm.com/docs/git-http-backend) behind a local
// server that asks for credentials as GitHub does — HTTP Basic, the token as the password
// ("x-access-token:<token>"), 401 when it is missing or refused. Every request is recorded
// with the token it carried, so a test can tell which token each fetch and push used.

import { spawn } from "node:child_process";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface GitHttpRequest {
  /** `git-upload-pack` (fetch, ls-remote) or `git-receive-pack` (push). */
  service: string;
  /** The token in the Basic credentials, or null when git sent none. */
  token: string | null;
  status: number;
  /** GET (the refs advertised) or POST (the fetch's or push's pack). */
  method: string;
}

export interface GitHttpServer {
  /** The base URL: `${url}/<repo>.git` is a repository under `root`. */
  url: string;
  requests: GitHttpRequest[];
  close(): Promise<void>;
}

function tokenOf(request: IncomingMessage): string | null {
  const match = /^basic\s+(.+)$/i.exec(request.headers.authorization ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? null : decoded.slice(colon + 1);
}

function serviceOf(url: URL): string {
  return (
    url.searchParams.get("service") ??
    /\/(git-(?:upload|receive)-pack)$/.exec(url.pathname)?.[1] ??
    "?"
  );
}

export async function startGitHttpServer(options: {
  /** The directory holding the bare repositories served. */
  root: string;
  /** Whether GitHub would take this token now. */
  accepts(token: string): boolean;
  /** Who a token is, passed to the repository's hooks as REMOTE_USER (default x-access-token). */
  userOf?(token: string): string;
  /** Told of each request once it is answered (a push has landed by then). */
  answered?(request: GitHttpRequest): void;
}): Promise<GitHttpServer> {
  const requests: GitHttpRequest[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const token = tokenOf(request);
    const service = serviceOf(url);
    const method = request.method ?? "GET";
    if (token === null || !options.accepts(token)) {
      const refused = { service, token, status: 401, method };
      requests.push(refused);
      request.resume();
      response.writeHead(401, { "www-authenticate": 'Basic realm="GitHub"' });
      response.end("Invalid username or token.\n");
      options.answered?.(refused);
      return;
    }
    const backend = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        GIT_PROJECT_ROOT: options.root,
        GIT_HTTP_EXPORT_ALL: "1",
        // http-backend allows pushes only from an authenticated user.
        REMOTE_USER: options.userOf?.(token) ?? "x-access-token",
        REMOTE_ADDR: "127.0.0.1",
        REQUEST_METHOD: request.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.replace(/^\?/, ""),
        CONTENT_TYPE: request.headers["content-type"] ?? "",
        ...(request.headers["content-length"] === undefined
          ? {}
          : { CONTENT_LENGTH: request.headers["content-length"] }),
        ...(request.headers["content-encoding"] === undefined
          ? {}
          : { HTTP_CONTENT_ENCODING: request.headers["content-encoding"] }),
        ...(typeof request.headers["git-protocol"] === "string"
          ? { GIT_PROTOCOL: request.headers["git-protocol"] }
          : {}),
      },
    });
    request.pipe(backend.stdin);
    const out: Buffer[] = [];
    backend.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    backend.stderr.resume();
    backend.on("close", () => {
      // CGI output: headers, a blank line, the body.
      const all = Buffer.concat(out);
      const crlf = all.indexOf("\r\n\r\n");
      const lf = all.indexOf("\n\n");
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
      const gap = end === crlf ? 4 : 2;
      const head = end < 0 ? "" : all.subarray(0, end).toString("latin1");
      const body = end < 0 ? all : all.subarray(end + gap);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.split(/\r?\n/)) {
        const colon = line.indexOf(":");
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === "status") status = Number.parseInt(value, 10) || 500;
        else headers[name] = value;
      }
      const answered = { service, token, status, method };
      requests.push(answered);
      response.writeHead(status, headers);
      response.end(body, () => options.answered?.(answered));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

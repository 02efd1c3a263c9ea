// A fake GitHub over real HTTP for the webhook server: the server reaches it through
// GHE_HOST/GHE_PROTOCOL (`http://127.0.0.1:<port>/api/v3`, Probot's GitHub Enterprise
// convention), exactly as it would reach GitHub Enterprise Server. Every request is
// validated against GitHub's OpenAPI description (the committed subset) and recorded with
// the time it arrived and was answered and the kind of credential it carried; each answer
// can be delayed (GitHub answering in 300 ms) or held until the test releases it.
//
// It answers the calls the app makes, in GitHub's shapes: an installation token, no
// `.github/cfa.yml` (defaults), a permission per login, reactions, workflow runs,
// dispatches, comments. Anything else, or anything invalid, gets 404/422 and is recorded.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { GitHubRequestInvalid } from "./github-request-invalid.js";
import { createGitHubValidator } from "./openapi-validator.js";

export const FAKE_INSTALLATION_TOKEN = "ghs_fakeGitHubServerInstallationToken01";

export interface FakeCall {
  readonly method: string;
  /** The path under /api/v3, with its query. */
  readonly path: string;
  readonly operationId: string | undefined;
  readonly body: unknown;
  /** "jwt" (as the app), "token" (as an installation), or "none". */
  readonly auth: "jwt" | "token" | "none";
  readonly receivedAt: number;
  answeredAt: number | undefined;
  readonly status: number;
  readonly invalid: string | undefined;
}

export interface FakeGitHubServer {
  /** For GHE_HOST: `127.0.0.1:<port>`. */
  readonly host: string;
  readonly calls: FakeCall[];
  /** Holds the answers to matching requests until the returned function is called. */
  hold(matches: (call: FakeCall) => boolean): () => void;
  /** Permission per login; default write. */
  permissions: Map<string, "admin" | "write" | "read" | "none">;
  /** Comments posted, per issue number, as the app's (`cfa-bot[bot]`). */
  comments: Map<string, { id: number; body: string; user: { login: string; type: string } }[]>;
  stop(): Promise<void>;
}

export interface FakeGitHubOptions {
  /** How long every answer takes, in ms. */
  latencyMs?: number;
  /** List no comments, as if the app's earlier replies were not found (positive controls). */
  hideComments?: boolean;
}

const API_PREFIX = "/api/v3";

export const isWrite = (call: Pick<FakeCall, "method">) =>
  call.method !== "GET" && call.method !== "HEAD";

export async function startFakeGitHubServer(
  options: FakeGitHubOptions = {},
): Promise<FakeGitHubServer> {
  const validator = createGitHubValidator();
  const latency = options.latencyMs ?? 0;
  const calls: FakeCall[] = [];
  const holds: { matches: (call: FakeCall) => boolean; released: Promise<void> }[] = [];
  const permissions = new Map<string, "admin" | "write" | "read" | "none">();
  const comments: FakeGitHubServer["comments"] = new Map();
  let nextId = 1000;

  const answer = (call: FakeCall, params: Record<string, string>): [number, unknown] => {
    switch (call.operationId) {
      case "apps/create-installation-access-token":
        return [
          201,
          {
            token: FAKE_INSTALLATION_TOKEN,
            expires_at: new Date(Date.now() + 3_600_000).toISOString(),
            permissions: { issues: "write", actions: "write", contents: "read" },
            repository_selection: "all",
          },
        ];
      case "apps/get-authenticated":
        return [200, { id: 123456, slug: "cfa-bot", name: "cfa-bot" }];
      case "repos/get-content":
        return [404, { message: "Not Found" }];
      case "repos/get-collaborator-permission-level": {
        const login = params["username"] ?? "";
        const permission = permissions.get(login) ?? "write";
        return [
          200,
          {
            permission,
            role_name: permission,
            user: { login, id: 1, type: "User" },
          },
        ];
      }
      case "reactions/create-for-issue":
      case "reactions/create-for-issue-comment":
        return [201, { id: (nextId += 1), content: "eyes" }];
      case "actions/list-workflow-runs":
        return [200, { total_count: 0, workflow_runs: [] }];
      case "actions/create-workflow-dispatch":
        return [204, undefined];
      case "actions/cancel-workflow-run":
        return [202, {}];
      case "issues/list-comments":
        // What the app posted, as GitHub lists it: post-once finds its own comments again.
        return [
          200,
          options.hideComments ? [] : (comments.get(params["issue_number"] ?? "") ?? []),
        ];
      case "issues/create-comment": {
        const id = (nextId += 1);
        const issue = params["issue_number"] ?? "";
        const list = comments.get(issue) ?? [];
        const body = (call.body as { body?: unknown } | undefined)?.body;
        list.push({
          id,
          body: typeof body === "string" ? body : "",
          user: { login: "cfa-bot[bot]", type: "Bot" },
        });
        comments.set(issue, list);
        return [201, { id }];
      }
      default:
        return [404, { message: `the fake GitHub does not answer ${call.operationId}` }];
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const method = (req.method ?? "GET").toUpperCase();
    const full = req.url ?? "/";
    const path = full.startsWith(API_PREFIX) ? full.slice(API_PREFIX.length) : full;
    const authorization = req.headers.authorization ?? "";
    const auth =
      authorization.startsWith("bearer ") || authorization.startsWith("Bearer ")
        ? "jwt"
        : authorization === `token ${FAKE_INSTALLATION_TOKEN}`
          ? "token"
          : "none";
    let operationId: string | undefined;
    let params: Record<string, string> = {};
    let body: unknown = text === "" ? undefined : text;
    let invalid: string | undefined;
    if (!full.startsWith(API_PREFIX)) {
      invalid = `${full} is not under ${API_PREFIX} (GHE_HOST not honoured?)`;
    } else {
      try {
        const valid = validator.validate({
          method,
          url: path,
          body: text === "" ? undefined : text,
        });
        operationId = valid.operationId;
        params = { ...valid.params };
        body = valid.body;
      } catch (error) {
        invalid = error instanceof GitHubRequestInvalid ? error.message : String(error);
        operationId = error instanceof GitHubRequestInvalid ? error.operationId : undefined;
      }
    }
    const provisional = { method, path, operationId, body, auth } as const;
    const [status, payload] =
      invalid !== undefined
        ? [422, { message: invalid }]
        : answer({ ...provisional, receivedAt: 0, answeredAt: 0, status: 0, invalid }, params);
    const call: FakeCall = {
      ...provisional,
      receivedAt: performance.now(),
      answeredAt: undefined,
      status,
      invalid,
    };
    calls.push(call);
    for (const hold of holds.filter((h) => h.matches(call))) await hold.released;
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    call.answeredAt = performance.now();
    if (payload === undefined) {
      res.writeHead(status).end();
    } else {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(payload));
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    calls,
    permissions,
    comments,
    hold(matches) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const entry = { matches, released };
      holds.push(entry);
      return () => {
        holds.splice(holds.indexOf(entry), 1);
        release();
      };
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

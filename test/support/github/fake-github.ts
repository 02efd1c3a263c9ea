// A small, stateful GitHub behind nock for end-to-end jobs: issues, comments, reactions,
// permissions, pull requests, reviews, check runs, contents, workflow dispatches, and
// branch deletion against a real bare repository (pushes go there by git, as on GitHub).
// Every request still passes through nockGitHub(), so the test kit validates each one
// against GitHub's OpenAPI description and counts it.

import { createHash, createPublicKey, verify } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { executeSync } from "graphql";
import type { Clock } from "../../../src/ports/clock.js";
import { nockGitHub, testPrivateKey } from "./index.js";
import { git } from "../git/temp-repo.js";
import { checkGithubQuery, githubGraphqlSchema } from "./github-graphql-schema.js";
import { GitHubRequestInvalid } from "./github-request-invalid.js";
import { createGitHubValidator } from "./openapi-validator.js";

export const OWNER = "octo-org";
export const REPO = "hello-world";
export const FULL = `${OWNER}/${REPO}`;
const R = `/repos/${OWNER}/${REPO}`;
const WEB = `https://github.com/${FULL}`;

type UserType = "User" | "Bot";
interface User {
  login: string;
  type: UserType;
}
interface IssueState {
  number: number;
  title: string;
  body: string;
  user: User;
  labels: string[];
  state: "open" | "closed";
  events: { event: string; actor: User; label?: string }[];
}
interface CommentState {
  id: number;
  issue: number;
  user: User;
  body: string;
}
interface PullState {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  state: "open" | "closed";
  /** Closed by a merge (the pull request's "Merge" button). */
  merged?: boolean;
  user: User;
  requested: string[];
}
export interface ReviewState {
  id: number;
  pull: number;
  user: User;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED";
  body: string;
  commitId: string;
  comments: { path: string; line: number; body: string; diffHunk?: string }[];
}
interface CheckState {
  id: number;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  /** The output's title, as last set. */
  title?: string;
}

const user = (u: User, id = 1) => ({
  login: u.login,
  id,
  node_id: "MDQ6VXNlcjE=",
  type: u.type,
  site_admin: false,
  url: `https://api.github.com/users/${u.login}`,
  html_url: `https://github.com/${u.login}`,
});

export class FakeGitHub {
  readonly issues = new Map<number, IssueState>();
  readonly comments: CommentState[] = [];
  readonly pulls: PullState[] = [];
  readonly reviews: ReviewState[] = [];
  readonly checks: CheckState[] = [];
  readonly dispatches: { workflow: string; ref: string; job: string }[] = [];
  /**
   * Every dispatch's inputs whole (a task run's job, task and epoch), in order; with
   * `return_run_details` GitHub answers the new run's id, kept in `runs`.
   */
  readonly dispatchInputs: Record<string, string>[] = [];
  /** Runs started by a dispatch that asked for their details, by id; a test moves them on. */
  readonly runs = new Map<
    number,
    { inputs: Record<string, string>; status: string; conclusion: string | null }
  >();
  readonly reactions: { target: string; content: string }[] = [];
  readonly permissions = new Map<string, string>();
  config: string | null = null;
  /** False for a private repository on GitHub Free or Pro: no draft pull requests. */
  draftsSupported = true;
  /** Every request answered, with its status: a 304 costs no rate limit, the rest do. */
  readonly answered: { route: Route; status: number }[] = [];
  /** GraphQL queries GitHub would refuse (the OpenAPI check sees only the envelope). */
  readonly graphqlProblems: string[] = [];
  /**
   * Answers a route with an error instead (a GitHub outage, a rate limit, a permission
   * missing): every time, or the next `times` times only.
   */
  readonly failures = new Map<
    Route,
    { status: number; message: string; times?: number; headers?: Record<string, string> }
  >();
  /**
   * Acting as the app (actAsApp): GitHub checks every request's credentials. Installation
   * tokens live one hour by `clock` ("Installation tokens expire 1 hour from the time you
   * create them", docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/generating-an-installation-access-token-for-a-github-app);
   * a token past its hour, or unknown, is answered 401 "Bad credentials".
   */
  private app: { clock: Clock; appId: number; expiry: Map<string, number> } | undefined;
  /** Installation tokens minted, in order, with the time each expires. */
  readonly minted: { token: string; expiresAt: string }[] = [];
  /** API requests made with an installation token, in order, with that token. */
  readonly tokensUsed: { route: Route; token: string }[] = [];
  /** Requests refused for their credentials (none, when the client refreshes in time). */
  readonly refusedCredentials: { route: Route; authorization: string }[] = [];
  /**
   * Told of every dispatch, with the run's id when the dispatch asked for it (the run is in
   * `runs` then) and the token that sent it: a multi-process test's runner pool starts its
   * processes from here (test/support/github/actions-runners.ts).
   */
  onDispatch:
    | ((d: { inputs: Record<string, string>; runId: number | null; token: string }) => void)
    | undefined;
  /** Told of every cancel of a run GitHub knows and that had not completed. */
  onCancel: ((runId: number) => void) | undefined;
  private nextId = 100;

  constructor(
    /** The bare repository standing in for GitHub's git side. */
    readonly bare: string,
    readonly botLogin: string,
  ) {}

  // ---- what people do on github.com ----

  /** Opens an issue carrying `label`, added by its author unless `labeledBy` says who. */
  openIssue(input: {
    number: number;
    title: string;
    body: string;
    author: string;
    label: string;
    labeledBy?: string;
  }) {
    this.issues.set(input.number, {
      number: input.number,
      title: input.title,
      body: input.body,
      user: { login: input.author, type: "User" },
      labels: [input.label],
      state: "open",
      events: [
        {
          event: "labeled",
          actor: { login: input.labeledBy ?? input.author, type: "User" },
          label: input.label,
        },
      ],
    });
  }

  comment(issue: number, login: string, body: string, type: UserType = "User"): CommentState {
    const comment = { id: this.id(), issue, user: { login, type }, body };
    this.comments.push(comment);
    return comment;
  }

  review(input: {
    pull: number;
    login: string;
    state: ReviewState["state"];
    commitId: string;
    body?: string;
    comments?: ReviewState["comments"];
  }): ReviewState {
    const review: ReviewState = {
      id: this.id(),
      pull: input.pull,
      user: { login: input.login, type: "User" },
      state: input.state,
      body: input.body ?? "",
      commitId: input.commitId,
      comments: input.comments ?? [],
    };
    this.reviews.push(review);
    return review;
  }

  /**
   * A person merges pull request `number` (its "Merge" button): it closes, merged, and its
   * `Closes #N` closes the issue it names
   * (https://docs.github.com/en/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue).
   */
  merge(number: number, closes?: number): void {
    const pull = this.pulls.find((p) => p.number === number);
    if (!pull) throw new Error(`fake GitHub: no pull request #${number}`);
    pull.state = "closed";
    pull.merged = true;
    const issue = closes === undefined ? undefined : this.issues.get(closes);
    if (issue) issue.state = "closed";
  }

  /** The commit a branch is at on "GitHub" (the bare repository). */
  head(branch: string): string {
    return git(this.bare, "rev-parse", `refs/heads/${branch}`);
  }

  branches(): string[] {
    return git(this.bare, "for-each-ref", "--format=%(refname:short)", "refs/heads/")
      .split("\n")
      .filter((b) => b !== "");
  }

  /** GitHub as an installed app sees it: JWTs for the app's own routes, tokens elsewhere. */
  actAsApp(clock: Clock, appId: number): void {
    this.app = { clock, appId, expiry: new Map() };
  }

  /** Whether GitHub takes this installation token now (for git over HTTP too). */
  acceptsToken(token: string): boolean {
    const expires = this.app?.expiry.get(token);
    return expires !== undefined && this.app!.clock.now().getTime() < expires;
  }

  botComments(issue: number): CommentState[] {
    return this.comments.filter((c) => c.issue === issue && c.user.login === this.botLogin);
  }

  // ---- the REST API ----

  /** Installs every route, persisted; each must be used at least once by the test. */
  install(routes: readonly Route[] = ROUTES): void {
    const scope = nockGitHub().persist();
    for (const route of routes) {
      const [method, path] = ROUTE_PATHS[route];
      const answer = (uri: string, body: unknown, headers: Record<string, unknown>) => {
        const reply = this.answer(
          route,
          new URL(uri, "https://api.github.com"),
          body as Record<string, unknown>,
          headers,
        );
        this.answered.push({ route, status: reply[0] });
        return reply;
      };
      scope
        .intercept(path, method)
        .query(true)
        .reply(function (uri, body) {
          return answer(uri, body, this.req.headers as Record<string, unknown>);
        });
    }
  }

  /**
   * The same GitHub over real HTTP, for processes of their own (a worker started as Actions
   * starts it: `GITHUB_API_URL` is the returned `url`). Every request is validated against
   * GitHub's OpenAPI description as the nock scopes are; one that is not valid, or that no
   * route answers, gets 422/404 and is kept in `invalid`.
   */
  async serve(): Promise<{ url: string; invalid: string[]; close(): Promise<void> }> {
    const validator = createGitHubValidator();
    const invalid: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const method = (req.method ?? "GET").toUpperCase();
        const url = new URL(req.url ?? "/", "http://localhost");
        const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
          if (payload === undefined || payload === "") {
            res.writeHead(status, headers).end();
          } else if (typeof payload === "string") {
            res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
            res.end(payload);
          } else {
            res.writeHead(status, {
              "content-type": "application/json; charset=utf-8",
              ...headers,
            });
            res.end(JSON.stringify(payload));
          }
        };
        try {
          validator.validate({ method, url: url.pathname + url.search, body: text || undefined });
        } catch (error) {
          const why = error instanceof GitHubRequestInvalid ? error.message : String(error);
          invalid.push(`${method} ${url.pathname}: ${why}`);
          send(422, { message: why });
          return;
        }
        const route = ROUTES.find((r) => {
          const [m, path] = ROUTE_PATHS[r];
          if (m !== method) return false;
          return typeof path === "string"
            ? path === url.pathname
            : path.test(url.pathname) || path.test(url.pathname + url.search);
        });
        if (route === undefined) {
          invalid.push(`${method} ${url.pathname}: no route of the fake answers it`);
          send(404, { message: "Not Found" });
          return;
        }
        let body: Record<string, unknown> = {};
        try {
          body = text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
        } catch {
          body = {};
        }
        const [status, payload, headers] = this.answer(
          route,
          new URL(url.pathname + url.search, "https://api.github.com"),
          body,
          req.headers as Record<string, unknown>,
        );
        this.answered.push({ route, status });
        send(status, payload, headers);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      invalid,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  private answer(
    route: Route,
    url: URL,
    body: Record<string, unknown>,
    headers: Record<string, unknown>,
  ): [number, unknown] | [number, unknown, Record<string, string>] {
    const accept = String(headers["accept"] ?? "");
    if (this.app !== undefined) {
      const refused = this.refuseCredentials(route, String(headers["authorization"] ?? ""));
      if (refused !== undefined) return refused;
    }
    const failure = this.failures.get(route);
    if (failure) {
      if (failure.times !== undefined && --failure.times <= 0) this.failures.delete(route);
      return [failure.status, { message: failure.message }, failure.headers ?? {}];
    }
    const parts = url.pathname.split("/").map(decodeURIComponent);
    const num = (i: number) => Number(parts[i]);
    switch (route) {
      case "repo":
        return [
          200,
          {
            id: 1,
            name: REPO,
            full_name: FULL,
            default_branch: "main",
            owner: user({ login: OWNER, type: "User" }),
          },
        ];
      case "issue": {
        const issue = this.issues.get(num(5));
        if (!issue) return [404, { message: "Not Found" }];
        // Conditional requests as GitHub answers them: the same representation, the same
        // ETag, and 304 with no body when the client already has it.
        const json = this.issueJson(issue);
        const etag = `W/"${createHash("sha256").update(JSON.stringify(json)).digest("hex").slice(0, 32)}"`;
        if (headers["if-none-match"] === etag) return [304, "", { etag }];
        return [200, json, { etag }];
      }
      case "issue-events": {
        const issue = this.issues.get(num(5));
        return [
          200,
          (issue?.events ?? []).map((e, i) => ({
            id: i + 1,
            event: e.event,
            actor: user(e.actor),
            label: e.label ? { name: e.label, color: "f29513" } : undefined,
            created_at: "2026-11-22T10:00:00Z",
          })),
        ];
      }
      case "list-comments":
        return [
          200,
          this.comments.filter((c) => c.issue === num(5)).map((c) => this.commentJson(c)),
        ];
      case "create-comment": {
        // Every comment made through the API here is the bot's (people comment in tests).
        const comment = this.comment(num(5), this.botLogin, String(body["body"]), "Bot");
        return [201, this.commentJson(comment)];
      }
      case "update-comment": {
        const comment = this.comments.find((c) => c.id === num(6));
        if (!comment) return [404, { message: "Not Found" }];
        comment.body = String(body["body"]);
        return [200, this.commentJson(comment)];
      }
      case "issue-reaction":
      case "comment-reaction":
        this.reactions.push({ target: url.pathname, content: String(body["content"]) });
        return [
          201,
          {
            id: this.id(),
            content: body["content"],
            user: user({ login: "cfa-bot[bot]", type: "Bot" }),
          },
        ];
      case "permission": {
        const login = parts[5] ?? "";
        const permission = this.permissions.get(login);
        if (permission === undefined) return [404, { message: "Not Found" }];
        const legacy =
          permission === "maintain" ? "write" : permission === "triage" ? "read" : permission;
        return [
          200,
          { permission: legacy, role_name: permission, user: user({ login, type: "User" }) },
        ];
      }
      case "content": {
        const path = parts.slice(5).join("/");
        if (
          parts[2] !== OWNER ||
          parts[3] !== REPO ||
          path !== ".github/cfa.yml" ||
          this.config === null
        ) {
          return [404, { message: "Not Found" }];
        }
        if (accept.includes("raw"))
          return [200, this.config, { "content-type": "text/plain; charset=utf-8" }];
        return [
          200,
          {
            type: "file",
            encoding: "base64",
            size: this.config.length,
            name: "cfa.yml",
            path,
            content: Buffer.from(this.config).toString("base64"),
          },
        ];
      }
      case "org-content":
        return [404, { message: "Not Found" }];
      case "list-pulls": {
        const head = (url.searchParams.get("head") ?? "").replace(`${OWNER}:`, "");
        return [
          200,
          this.pulls
            .filter((p) => p.head === head)
            .reverse()
            .map((p) => this.pullJson(p)),
        ];
      }
      case "create-pull": {
        if (body["draft"] === true && !this.draftsSupported) {
          return [
            422,
            {
              message: "Draft pull requests are not supported in this repository.",
              documentation_url: "https://docs.github.com/rest/pulls/pulls#create-a-pull-request",
            },
          ];
        }
        const pull: PullState = {
          number: this.id(),
          head: String(body["head"]),
          base: String(body["base"]),
          title: String(body["title"]),
          body: String(body["body"]),
          draft: body["draft"] === true,
          state: "open",
          user: { login: this.botLogin, type: "Bot" },
          requested: [],
        };
        this.pulls.push(pull);
        return [201, this.pullJson(pull)];
      }
      case "get-pull": {
        const pull = this.pulls.find((p) => p.number === num(5));
        return pull ? [200, this.pullJson(pull)] : [404, { message: "Not Found" }];
      }
      case "update-pull": {
        const pull = this.pulls.find((p) => p.number === num(5));
        if (!pull) return [404, { message: "Not Found" }];
        if (typeof body["title"] === "string") pull.title = body["title"];
        if (typeof body["body"] === "string") pull.body = body["body"];
        if (body["state"] === "closed") pull.state = "closed";
        return [200, this.pullJson(pull)];
      }
      case "graphql":
        return this.graphql(body);
      case "request-reviewers": {
        const pull = this.pulls.find((p) => p.number === num(5));
        if (!pull) return [404, { message: "Not Found" }];
        const reviewers = body["reviewers"] as string[];
        // GitHub refuses the whole request if any login is not a collaborator.
        if (reviewers.some((login) => !this.permissions.has(login))) {
          return [
            422,
            {
              message: `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${FULL} repository.`,
              documentation_url:
                "https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request",
            },
          ];
        }
        pull.requested.push(...reviewers);
        return [201, this.pullJson(pull)];
      }
      case "list-reviews":
        return [
          200,
          this.reviews
            .filter((r) => r.pull === num(5))
            .map((r) => ({
              id: r.id,
              node_id: "PRR_1",
              user: user(r.user),
              body: r.body,
              state: r.state,
              commit_id: r.commitId,
              submitted_at: "2026-11-22T10:00:00Z",
              html_url: `${WEB}/pull/${r.pull}#pullrequestreview-${r.id}`,
              author_association: "COLLABORATOR",
            })),
        ];
      case "review-comments": {
        const review = this.reviews.find((r) => r.id === num(7));
        return [
          200,
          (review?.comments ?? []).map((c, i) => ({
            id: i + 1,
            path: c.path,
            line: c.line,
            original_line: c.line,
            body: c.body,
            diff_hunk: c.diffHunk ?? "",
            pull_request_review_id: review?.id,
            user: user(review?.user ?? { login: "ghost", type: "User" }),
          })),
        ];
      }
      case "list-checks": {
        const sha = parts[5];
        const name = url.searchParams.get("check_name");
        const runs = this.checks.filter((c) => c.headSha === sha && c.name === name);
        return [200, { total_count: runs.length, check_runs: runs.map((c) => this.checkJson(c)) }];
      }
      case "create-check": {
        const check: CheckState = {
          id: this.id(),
          name: String(body["name"]),
          headSha: String(body["head_sha"]),
          status: String(body["status"]),
          conclusion: (body["conclusion"] as string | undefined) ?? null,
          ...titleOf(body),
        };
        this.checks.push(check);
        return [201, this.checkJson(check)];
      }
      case "update-check": {
        const check = this.checks.find((c) => c.id === num(5));
        if (!check) return [404, { message: "Not Found" }];
        check.status = String(body["status"]);
        check.conclusion = (body["conclusion"] as string | undefined) ?? null;
        Object.assign(check, titleOf(body));
        return [200, this.checkJson(check)];
      }
      case "delete-ref": {
        const ref = parts.slice(6).join("/");
        try {
          git(this.bare, "update-ref", "-d", `refs/${ref}`);
        } catch {
          return [422, { message: "Reference does not exist" }];
        }
        return [204, ""];
      }
      case "installation":
        return [
          200,
          {
            id: INSTALLATION_ID,
            app_id: this.app?.appId,
            account: user({ login: OWNER, type: "User" }),
            repository_selection: "selected",
            permissions: { contents: "write", issues: "write", pull_requests: "write" },
          },
        ];
      case "access-tokens": {
        if (num(3) !== INSTALLATION_ID) return [404, { message: "Not Found" }];
        const token = `ghs_e2eApp${String(this.minted.length + 1).padStart(2, "0")}${"x".repeat(24)}`;
        const expires = this.app!.clock.now().getTime() + 60 * 60_000;
        this.app!.expiry.set(token, expires);
        const expiresAt = new Date(expires).toISOString().replace(/\.\d{3}Z$/, "Z");
        this.minted.push({ token, expiresAt });
        return [
          201,
          {
            token,
            expires_at: expiresAt,
            permissions: { contents: "write", issues: "write", pull_requests: "write" },
            repository_selection: "selected",
          },
        ];
      }
      case "dispatch": {
        const inputs = body["inputs"] as Record<string, string>;
        this.dispatches.push({
          workflow: parts[6] ?? "",
          ref: String(body["ref"]),
          job: inputs["job"] ?? "",
        });
        this.dispatchInputs.push({ ...inputs });
        const token = /^(?:token|bearer)\s+(.+)$/i.exec(String(headers["authorization"] ?? ""));
        if (body["return_run_details"] !== true) {
          this.onDispatch?.({ inputs: { ...inputs }, runId: null, token: token?.[1] ?? "" });
          return [204, ""];
        }
        // https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event:
        // 200 with the run's id and addresses when the details are asked for.
        const id = this.nextId++;
        this.runs.set(id, { inputs: { ...inputs }, status: "queued", conclusion: null });
        this.onDispatch?.({ inputs: { ...inputs }, runId: id, token: token?.[1] ?? "" });
        return [
          200,
          {
            workflow_run_id: id,
            run_url: `https://api.github.com/repos/${FULL}/actions/runs/${id}`,
            html_url: `https://github.com/${FULL}/actions/runs/${id}`,
          },
        ];
      }
      case "get-run": {
        const id = Number(parts[6]);
        const run = this.runs.get(id);
        if (run === undefined) return [404, { message: "Not Found" }];
        return [
          200,
          {
            id,
            status: run.status,
            conclusion: run.conclusion,
            display_title: `cfa job #${run.inputs["job"] ?? ""}`,
          },
        ];
      }
      case "cancel-run": {
        const id = Number(parts[6]);
        const run = this.runs.get(id);
        if (run === undefined) return [404, { message: "Not Found" }];
        if (run.status === "completed")
          return [409, { message: "Cannot cancel a workflow run that is completed." }];
        run.status = "completed";
        run.conclusion = "cancelled";
        this.onCancel?.(id);
        return [202, {}];
      }
      default: {
        const never: never = route;
        throw new Error(`fake GitHub: unhandled route ${String(never)}`);
      }
    }
  }

  /** GitHub's check of a request's credentials when the client acts as the app. */
  private refuseCredentials(route: Route, authorization: string): [number, unknown] | undefined {
    const app = this.app!;
    const refuse = (): [number, unknown] => {
      this.refusedCredentials.push({ route, authorization });
      return [
        401,
        { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" },
      ];
    };
    if (route === "installation" || route === "access-tokens") {
      // The app's own routes take a JWT signed with its private key, issued by its id.
      const jwt = /^bearer ([^.]+)\.([^.]+)\.([^.]+)$/i.exec(authorization);
      if (!jwt) return refuse();
      const signed = verify(
        "RSA-SHA256",
        Buffer.from(`${jwt[1]}.${jwt[2]}`),
        createPublicKey(testPrivateKey()),
        Buffer.from(jwt[3]!, "base64url"),
      );
      const claims = JSON.parse(Buffer.from(jwt[2]!, "base64url").toString()) as { iss?: unknown };
      return signed && String(claims.iss) === String(app.appId) ? undefined : refuse();
    }
    const token = /^token (\S+)$/i.exec(authorization)?.[1];
    if (token === undefined || !this.acceptsToken(token)) return refuse();
    this.tokensUsed.push({ route, token });
    return undefined;
  }

  private id(): number {
    this.nextId += 1;
    return this.nextId;
  }

  // ---- the GraphQL API: GitHub's schema, executed over this fake's state ----

  /** Validates the query as GitHub would, then runs it; 200 with `errors` when refused. */
  private graphql(body: Record<string, unknown>): [number, unknown] {
    const query = String(body["query"] ?? "");
    const variables = (body["variables"] ?? {}) as Record<string, unknown>;
    const checked = checkGithubQuery(query, variables);
    if (checked.document === undefined) {
      this.graphqlProblems.push(...checked.errors);
      return [200, { errors: checked.errors.map((message) => ({ message })) }];
    }
    const result = executeSync({
      schema: githubGraphqlSchema(),
      document: checked.document,
      rootValue: this.graphqlRoot(),
      variableValues: variables,
    });
    const errors = result.errors?.map((e) => ({
      message: e.message,
      path: e.path,
      type: "NOT_FOUND",
    }));
    return [200, errors === undefined ? { data: result.data } : { data: result.data, errors }];
  }

  private graphqlRoot() {
    return {
      repository: (args: { owner: string; name: string }) =>
        args.owner === OWNER && args.name === REPO ? this.repositoryNode() : null,
      node: (args: { id: string }) => {
        const pull = this.pulls.find((p) => `PR_${p.number}` === args.id);
        if (!pull)
          throw new Error(`Could not resolve to a node with the global id of '${args.id}'`);
        return this.pullNode(pull);
      },
      markPullRequestReadyForReview: (args: { input: { pullRequestId: string } }) => {
        const pull = this.pulls.find((p) => `PR_${p.number}` === args.input.pullRequestId);
        if (!pull) {
          throw new Error(
            `Could not resolve to a node with the global id of '${args.input.pullRequestId}'`,
          );
        }
        pull.draft = false;
        return { pullRequest: this.pullNode(pull) };
      },
    };
  }

  private repositoryNode() {
    const issueNode = (number: number) => {
      const issue = this.issues.get(number);
      if (!issue) {
        throw new Error(`Could not resolve to an Issue with the number of ${number}.`);
      }
      return this.issueNode(issue);
    };
    return {
      defaultBranchRef: { name: "main" },
      object: (args: { expression: string }) =>
        ["HEAD:.github/cfa.yml", "main:.github/cfa.yml"].includes(args.expression) &&
        this.config !== null
          ? {
              __typename: "Blob",
              text: this.config,
              isTruncated: false,
              byteSize: Buffer.byteLength(this.config),
            }
          : null,
      issue: (args: { number: number }) => issueNode(args.number),
      issueOrPullRequest: (args: { number: number }) => {
        const pull = this.pulls.find((p) => p.number === args.number);
        return pull ? this.pullNode(pull) : issueNode(args.number);
      },
      pullRequests: (args: ConnectionArgs & { headRefName?: string; states?: string[] }) =>
        connection(
          this.pulls
            .filter((p) => args.headRefName === undefined || p.head === args.headRefName)
            .filter((p) => args.states === undefined || args.states.includes(p.state.toUpperCase()))
            // orderBy CREATED_AT DESC: the newest first.
            .reverse()
            .map((p) => this.pullNode(p)),
          args,
        ),
    };
  }

  private issueNode(issue: IssueState) {
    return {
      __typename: "Issue",
      number: issue.number,
      title: issue.title,
      body: issue.body,
      state: issue.state.toUpperCase(),
      url: `${WEB}/issues/${issue.number}`,
      author: actorNode(issue.user),
      labels: (args: ConnectionArgs) =>
        connection(
          issue.labels.map((name) => ({ name })),
          args,
        ),
      timelineItems: (args: ConnectionArgs & { itemTypes?: string[] }) =>
        connection(
          issue.events
            .filter(
              (e) =>
                e.event === "labeled" &&
                (args.itemTypes ?? ["LABELED_EVENT"]).includes("LABELED_EVENT"),
            )
            .map((e) => ({
              __typename: "LabeledEvent",
              actor: actorNode(e.actor),
              label: { name: e.label ?? "" },
              createdAt: "2026-11-22T10:00:00Z",
            })),
          args,
        ),
      comments: (args: ConnectionArgs) =>
        connection(
          this.comments.filter((c) => c.issue === issue.number).map((c) => this.commentNode(c)),
          args,
        ),
    };
  }

  private commentNode(c: CommentState) {
    return {
      fullDatabaseId: String(c.id),
      databaseId: c.id,
      author: actorNode(c.user),
      body: c.body,
      createdAt: "2026-11-22T10:00:00Z",
      url: `${WEB}/issues/${c.issue}#issuecomment-${c.id}`,
    };
  }

  private pullNode(pull: PullState) {
    return {
      __typename: "PullRequest",
      id: `PR_${pull.number}`,
      number: pull.number,
      state: pull.merged === true ? "MERGED" : pull.state.toUpperCase(),
      isDraft: pull.draft,
      url: `${WEB}/pull/${pull.number}`,
      headRefName: pull.head,
      baseRefName: pull.base,
      author: actorNode(pull.user),
      // The pull request's own conversation: GitHub keeps it as issue comments on its number.
      comments: (args: ConnectionArgs) =>
        connection(
          this.comments.filter((c) => c.issue === pull.number).map((c) => this.commentNode(c)),
          args,
        ),
      reviews: (args: ConnectionArgs) =>
        connection(
          this.reviews
            .filter((r) => r.pull === pull.number)
            .map((r) => ({
              fullDatabaseId: String(r.id),
              state: r.state,
              body: r.body,
              submittedAt: "2026-11-22T10:00:00Z",
              author: actorNode(r.user),
              commit: { oid: r.commitId },
              comments: (a: ConnectionArgs) =>
                connection(
                  r.comments.map((c) => ({
                    path: c.path,
                    line: c.line,
                    originalLine: c.line,
                    body: c.body,
                    diffHunk: c.diffHunk ?? "",
                  })),
                  a,
                ),
            })),
          args,
        ),
    };
  }

  private issueJson(issue: IssueState) {
    return {
      id: issue.number,
      node_id: "I_1",
      number: issue.number,
      title: issue.title,
      body: issue.body,
      user: user(issue.user),
      labels: issue.labels.map((name) => ({ id: 1, name, color: "f29513", default: false })),
      state: issue.state,
      html_url: `${WEB}/issues/${issue.number}`,
      url: `https://api.github.com${R}/issues/${issue.number}`,
      comments: this.comments.filter((c) => c.issue === issue.number).length,
      created_at: "2026-11-22T10:00:00Z",
      updated_at: "2026-11-22T10:00:00Z",
      author_association: "COLLABORATOR",
    };
  }

  private commentJson(comment: CommentState) {
    return {
      id: comment.id,
      node_id: "IC_1",
      body: comment.body,
      user: user(comment.user),
      created_at: "2026-11-22T10:00:00Z",
      updated_at: "2026-11-22T10:00:00Z",
      html_url: `${WEB}/issues/${comment.issue}#issuecomment-${comment.id}`,
      issue_url: `https://api.github.com${R}/issues/${comment.issue}`,
      author_association: comment.user.type === "Bot" ? "NONE" : "COLLABORATOR",
    };
  }

  private pullJson(pull: PullState) {
    const ref = (name: string) => ({
      ref: name,
      label: `${OWNER}:${name}`,
      sha: this.branches().includes(name) ? this.head(name) : "0".repeat(40),
      repo: { full_name: FULL, name: REPO, owner: user({ login: OWNER, type: "User" }) },
    });
    return {
      id: pull.number,
      node_id: `PR_${pull.number}`,
      number: pull.number,
      title: pull.title,
      body: pull.body,
      state: pull.state,
      draft: pull.draft,
      user: user(pull.user),
      head: ref(pull.head),
      base: ref(pull.base),
      html_url: `${WEB}/pull/${pull.number}`,
      requested_reviewers: pull.requested.map((login) => user({ login, type: "User" })),
      merged: pull.merged === true,
      merged_at: pull.merged === true ? "2026-11-22T11:00:00Z" : null,
    };
  }

  private checkJson(check: CheckState) {
    return {
      id: check.id,
      name: check.name,
      head_sha: check.headSha,
      status: check.status,
      conclusion: check.conclusion,
      html_url: `${WEB}/runs/${check.id}`,
    };
  }
}

/** GraphQL names a bot without the "[bot]" REST shows. */
const actorNode = (u: User) => ({
  __typename: u.type === "Bot" ? "Bot" : "User",
  login: u.type === "Bot" ? u.login.replace(/\[bot\]$/, "") : u.login,
});

interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  before?: string | null;
  after?: string | null;
}

const cursor = (i: number) => Buffer.from(`cursor:${i}`).toString("base64");
const position = (c: string) => Number(Buffer.from(c, "base64").toString().slice("cursor:".length));

/** A GraphQL connection over a list, paged by first/last/before/after as GitHub pages. */
function connection<T>(items: readonly T[], args: ConnectionArgs) {
  let start = 0;
  let end = items.length;
  if (args.after) start = position(args.after) + 1;
  if (args.before) end = position(args.before);
  if (args.first !== undefined && args.first !== null) end = Math.min(end, start + args.first);
  if (args.last !== undefined && args.last !== null) start = Math.max(start, end - args.last);
  const nodes = items.slice(start, end);
  return {
    totalCount: items.length,
    nodes,
    edges: nodes.map((node, i) => ({ node, cursor: cursor(start + i) })),
    pageInfo: {
      hasPreviousPage: start > 0,
      hasNextPage: end < items.length,
      startCursor: nodes.length > 0 ? cursor(start) : null,
      endCursor: nodes.length > 0 ? cursor(end - 1) : null,
    },
  };
}

/** The app's installation on the repository, when the client acts as the app. */
export const INSTALLATION_ID = 5150;

const ROUTE_PATHS = {
  repo: ["GET", R],
  issue: ["GET", /^\/repos\/octo-org\/hello-world\/issues\/\d+$/],
  "issue-events": ["GET", /^\/repos\/octo-org\/hello-world\/issues\/\d+\/events/],
  "list-comments": ["GET", /^\/repos\/octo-org\/hello-world\/issues\/\d+\/comments/],
  "create-comment": ["POST", /^\/repos\/octo-org\/hello-world\/issues\/\d+\/comments$/],
  "update-comment": ["PATCH", /^\/repos\/octo-org\/hello-world\/issues\/comments\/\d+$/],
  "issue-reaction": ["POST", /^\/repos\/octo-org\/hello-world\/issues\/\d+\/reactions$/],
  "comment-reaction": [
    "POST",
    /^\/repos\/octo-org\/hello-world\/issues\/comments\/\d+\/reactions$/,
  ],
  permission: ["GET", /^\/repos\/octo-org\/hello-world\/collaborators\/[^/]+\/permission$/],
  content: ["GET", /^\/repos\/octo-org\/hello-world\/contents\//],
  "org-content": ["GET", /^\/repos\/octo-org\/\.github\/contents\//],
  "list-pulls": ["GET", /^\/repos\/octo-org\/hello-world\/pulls(\?|$)/],
  "create-pull": ["POST", `${R}/pulls`],
  "get-pull": ["GET", /^\/repos\/octo-org\/hello-world\/pulls\/\d+$/],
  "update-pull": ["PATCH", /^\/repos\/octo-org\/hello-world\/pulls\/\d+$/],
  graphql: ["POST", "/graphql"],
  "request-reviewers": [
    "POST",
    /^\/repos\/octo-org\/hello-world\/pulls\/\d+\/requested_reviewers$/,
  ],
  "list-reviews": ["GET", /^\/repos\/octo-org\/hello-world\/pulls\/\d+\/reviews(\?|$)/],
  "review-comments": ["GET", /^\/repos\/octo-org\/hello-world\/pulls\/\d+\/reviews\/\d+\/comments/],
  "list-checks": ["GET", /^\/repos\/octo-org\/hello-world\/commits\/[0-9a-f]+\/check-runs/],
  "create-check": ["POST", `${R}/check-runs`],
  "update-check": ["PATCH", /^\/repos\/octo-org\/hello-world\/check-runs\/\d+$/],
  "delete-ref": ["DELETE", /^\/repos\/octo-org\/hello-world\/git\/refs\//],
  dispatch: ["POST", /^\/repos\/octo-org\/hello-world\/actions\/workflows\/[^/]+\/dispatches$/],
  "get-run": ["GET", /^\/repos\/octo-org\/hello-world\/actions\/runs\/\d+$/],
  "cancel-run": ["POST", /^\/repos\/octo-org\/hello-world\/actions\/runs\/\d+\/cancel$/],
  installation: ["GET", `${R}/installation`],
  "access-tokens": ["POST", /^\/app\/installations\/\d+\/access_tokens$/],
} as const satisfies Record<
  string,
  readonly ["GET" | "POST" | "PATCH" | "DELETE", string | RegExp]
>;

export type Route = keyof typeof ROUTE_PATHS;
export const ROUTES = Object.keys(ROUTE_PATHS) as Route[];

function titleOf(body: Record<string, unknown>): { title?: string } {
  const title = (body["output"] as { title?: unknown } | undefined)?.title;
  return typeof title === "string" ? { title } : {};
}

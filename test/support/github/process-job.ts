// One job on GitHub played by processes of their own: the fake GitHub served over HTTP, its
// bare repository behind `git http-backend` (each run's token checked, each push logged with
// it), the model served over HTTP (the fake Messages API answering a recording by each
// conversation's position, so a turn redone in another process gets the same answers), and
// runners that start the released worker for every dispatch (actions-runners.ts). The person
// approves each gate with a review, after which the app would dispatch the lead; here the
// test dispatches it, as the app does. Build the release once per file (makeReleaseTree).

import { join } from "node:path";
import { recordedJobApi, type RecordedJobApi } from "../fake-messages-api/recorded-job.js";
import { startFakeMessagesApi, type FakeMessagesApi } from "../fake-messages-api/server.js";
import { git, makeTempRemote } from "../git/temp-repo.js";
import type { ReleaseTree } from "../release/release-tree.js";
import { startRunnerPool, type RunnerPool } from "./actions-runners.js";
import { FakeGitHub } from "./fake-github.js";
import { startGitHttpServer, type GitHttpServer } from "./git-http-server.js";
import { logPushes, readPushLog, type PushedUpdate } from "./push-log-hook.js";

export const PERSON = "ana";
const BOT = "github-actions[bot]";

export interface ProcessJob {
  github: FakeGitHub;
  pool: RunnerPool;
  api: RecordedJobApi;
  bare: string;
  /** GitHub's API requests that were not valid per its OpenAPI description. */
  invalid: string[];
  /** Every ref update the bare repository took, with the token that pushed it. */
  pushLog(): PushedUpdate[];
  /** The label's dispatch of the job's lead; resolves once no run is left. */
  start(): Promise<void>;
  /** The person approves the gate (a review of cfa/1's head), the lead is dispatched; idle. */
  approve(): Promise<void>;
  /** Job 1's state.json as cfa/1 holds it. */
  state(): { state: string; engine: Record<string, unknown> };
  /** What every run printed, for a failing test's message. */
  output(): string;
  cleanup(): Promise<void>;
}

export async function createProcessJob(options: {
  release: ReleaseTree;
  recording: { instances: Record<string, unknown[]> };
  /** `.github/cfa.yml` on the default branch. */
  config: string;
  files?: Record<string, string>;
  /** Concurrent jobs the plan allows (the issue's harness had three). */
  slots?: number;
}): Promise<ProcessJob> {
  const remote = makeTempRemote({
    prefix: "cfa-processes-",
    files: { "README.md": "# hello-world\n", ...options.files, ".github/cfa.yml": options.config },
  });
  const github = new FakeGitHub(remote.bare, BOT);
  github.config = options.config;
  github.permissions.set(PERSON, "write");
  github.openIssue({ number: 1, title: "Greet", body: "x", author: PERSON, label: "cfa" });
  const pushLogFile = join(remote.root, "push-log.txt");
  await logPushes(remote.bare, pushLogFile);
  // The git server asks the runners (made after it) about each token.
  const late: { pool?: RunnerPool } = {};
  const gitServer: GitHttpServer = await startGitHttpServer({
    root: remote.root,
    accepts: (token) => late.pool?.tokenLive(token) === true,
    userOf: (token) => token,
    answered: (request) => late.pool?.gitAnswered(request),
  });
  const served = await github.serve();
  // A killed run's turn is taken again by the task's next run, from its last folded turn.
  const api = recordedJobApi(options.recording as never, { redos: true });
  const model: FakeMessagesApi = await startFakeMessagesApi((request) => api.respond(request));
  const runners = startRunnerPool({
    github,
    apiUrl: served.url,
    checkout: (name) => {
      const at = remote.clone(name);
      git(at, "remote", "set-url", "origin", `${gitServer.url}/github.git`);
      return at;
    },
    root: remote.root,
    worker: options.release.worker,
    slots: options.slots ?? 3,
    env: {
      ANTHROPIC_API_KEY: "sk-ant-api03-fake-key-for-the-local-server",
      ANTHROPIC_BASE_URL: model.url,
    },
  });
  late.pool = runners;
  const leadAndWait = async () => {
    runners.dispatchLead(1);
    await runners.idle();
  };
  return {
    github,
    pool: runners,
    api,
    bare: remote.bare,
    invalid: served.invalid,
    pushLog: () => readPushLog(pushLogFile),
    start: leadAndWait,
    async approve() {
      const pull = github.pulls[0]!;
      github.review({
        pull: pull.number,
        login: PERSON,
        state: "APPROVED",
        commitId: github.head("cfa/1"),
      });
      await leadAndWait();
    },
    state: () =>
      JSON.parse(git(remote.bare, "show", "cfa/1:.cfa/jobs/1/state.json")) as {
        state: string;
        engine: Record<string, unknown>;
      },
    output: () =>
      runners.runs
        .map((r) => [`--- run ${r.id} (${r.job} ${JSON.stringify(r.inputs)})`, ...r.output])
        .flat()
        .join("\n"),
    async cleanup() {
      await runners.close();
      await model.close();
      await served.close();
      await gitServer.close();
      remote.cleanup();
    },
  };
}

// The Probot app (issue 5 §2): thin handlers over handleDelivery. The app validates,
// acknowledges and cues the worker; it never commits (DESIGN.md "One writer per job").

import type { ApplicationFunction, Context, Probot } from "probot";
import { HANDLED_EVENTS } from "../github-events/handled-events.js";
import { createDedupe, type Dedupe } from "../github-events/dedupe.js";
import { createGitHubCues, type GitHubRequester } from "../github-events/github-cues.js";
import { handleDelivery } from "../github-events/handle-delivery.js";
import { livePermission } from "../github-events/live-permission.js";
import { loadAppConfig } from "./load-app-config.js";
import { processRedactor, redactingLogger } from "../secrets/index.js";
import { fromPino } from "./pino-logger.js";

export interface CfaAppOptions {
  /** Per process by default; tests pass their own. */
  dedupe?: Dedupe;
  /**
   * The login the app posts as (`<slug>[bot]`); by default asked of GitHub once, as the app
   * (GET /app, https://docs.github.com/rest/apps/apps#get-the-authenticated-app).
   */
  botLogin?: string;
}

export function createCfaApp(options: CfaAppOptions = {}): ApplicationFunction {
  return (app: Probot) => {
    const dedupe = options.dedupe ?? createDedupe();
    let own: Promise<readonly string[]> | undefined;
    // Only the app's own comments count as already posted (post-once.ts); a failed look-up
    // is asked again on the next delivery.
    const botLogins = () =>
      (own ??= (options.botLogin === undefined ? appLogin(app) : Promise.resolve(options.botLogin))
        .then((login) => [login])
        .catch((error: unknown) => {
          own = undefined;
          throw error;
        }));
    app.on([...HANDLED_EVENTS], async (context: Context) => {
      const github = requesterOf(context.octokit);
      await handleDelivery(
        { id: context.id, name: context.name, payload: context.payload },
        {
          forRepo: (repo) => ({
            effects: createGitHubCues(github, repo),
            loadConfig: () => loadAppConfig(context.octokit, repo),
            permission: (login) => livePermission(github, repo, login),
          }),
          dedupe,
          logger: redactingLogger(fromPino(context.log), processRedactor()),
          botLogins,
        },
      );
    });
  };
}

async function appLogin(app: Probot): Promise<string> {
  const octokit = await app.auth();
  const { data } = await octokit.request("GET /app");
  const slug = (data as { slug?: unknown } | null)?.slug;
  if (typeof slug !== "string" || slug === "") {
    throw new Error("cfa/app: GET /app returned no slug; cannot tell the app's own comments");
  }
  return `${slug}[bot]`;
}

function requesterOf(octokit: Context["octokit"]): GitHubRequester {
  return {
    request: (route, params) => octokit.request(route, params),
    paginate: (route, params) => octokit.paginate(route, params) as Promise<unknown[]>,
  };
}

const cfaApp: ApplicationFunction = createCfaApp();
export default cfaApp;

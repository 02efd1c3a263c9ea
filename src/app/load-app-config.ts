// `.github/cfa.yml` read through Probot's config loader and validated with the
// zod schema the worker uses. Only the repository's own file counts: the worker reads that
// file and nothing else (Forge.readConfig), so an organisation-wide `.github` default or an
// `_extends` the app honoured would make the two disagree about the same job.

import { stringify } from "yaml";
import { CONFIG_PATH, parseConfig, type ConfigIssue } from "../config/index.js";
import { labelHint, type AppConfigLoad } from "../github-events/app-config.js";
import type { RepoCoordinates } from "../github-events/github-cues.js";

/** The loader Probot adds to its Octokit (@probot/octokit-plugin-config). */
export interface ConfigLoader {
  config: {
    get(options: { owner: string; repo: string; path: string }): Promise<{
      files: { owner: string; repo: string; config: Record<string, unknown> | null }[];
    }>;
  };
}

const LOADER_PREFIX = "[@probot/octokit-plugin-config]";

export async function loadAppConfig(
  loader: ConfigLoader,
  at: RepoCoordinates,
): Promise<AppConfigLoad> {
  let files: Awaited<ReturnType<ConfigLoader["config"]["get"]>>["files"];
  try {
    ({ files } = await loader.config.get({ owner: at.owner, repo: at.repo, path: CONFIG_PATH }));
  } catch (error) {
    // The loader's own errors are about the file (not YAML, a directory…); anything else
    // (a 5xx, a network failure) is GitHub's and is thrown on.
    if (error instanceof Error && error.message.startsWith(LOADER_PREFIX)) {
      return { ok: false, errors: [loaderIssue(error)], label: labelHint(null) };
    }
    throw error;
  }
  const own = files.find((f) => f.owner === at.owner && f.repo === at.repo)?.config ?? null;
  if (own === null) return toLoad(parseConfig(null), null);
  if (files.length > 1) {
    // The loader followed `_extends` (and removed it from `own`).
    const issue: ConfigIssue = {
      path: "_extends",
      message: `${CONFIG_PATH}: _extends is not supported; the worker reads only this file, so write the settings here`,
    };
    return { ok: false, errors: [issue], label: labelHint(own) };
  }
  return toLoad(parseConfig(stringify(own)), own);
}

function toLoad(parsed: ReturnType<typeof parseConfig>, raw: unknown): AppConfigLoad {
  return parsed.ok
    ? { ok: true, config: parsed.config }
    : { ok: false, errors: parsed.errors, label: labelHint(raw) };
}

function loaderIssue(error: Error): ConfigIssue {
  const cause = error.cause instanceof Error ? error.cause.message.split("\n")[0] : undefined;
  const what = error.message
    .slice(LOADER_PREFIX.length)
    .replace(/https?:\/\/\S+/g, CONFIG_PATH)
    .trim();
  return { path: "", message: cause ? `${what}: ${cause}` : what };
}

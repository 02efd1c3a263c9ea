// A person's permission on the repository, asked of GitHub at processing time (README,
// "How a job works": only people with write access act; never inferred from a label or
// author_association).

import * as z from "zod";
import { mapPermission, statusOf } from "../adapters/github/index.js";
import type { Permission } from "../ports/forge.js";
import type { GitHubRequester, RepoCoordinates } from "./github-cues.js";

const PermissionSchema = z.object({ permission: z.string(), role_name: z.string().nullish() });

export async function livePermission(
  github: Pick<GitHubRequester, "request">,
  at: RepoCoordinates,
  login: string,
): Promise<Permission> {
  let data: unknown;
  try {
    ({ data } = await github.request(
      "GET /repos/{owner}/{repo}/collaborators/{username}/permission",
      { owner: at.owner, repo: at.repo, username: login },
    ));
  } catch (error) {
    // Not a collaborator, or no such account: no authority.
    if (statusOf(error) === 404) return "none";
    throw error;
  }
  const parsed = PermissionSchema.safeParse(data);
  if (!parsed.success) {
    throw new Error(
      `cfa/app: repos/get-collaborator-permission-level returned a response the app cannot read: ${z
        .prettifyError(parsed.error)
        .replace(/\n/g, "; ")}`,
    );
  }
  return mapPermission(parsed.data);
}

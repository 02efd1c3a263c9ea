// The job's check runs on its commits: created once per name and commit, then updated. Ids
// are remembered by `name@sha`; a commit another run may have checked is searched once (all
// our names at once), one this process pushed is known to carry none yet.

import type { CheckUpdate } from "../../ports/forge.js";
import { checkRunFields } from "./check-run-fields.js";
import { NO_CONTENT, type GitHubCalls } from "./github-calls.js";
import { CheckRunListSchema, CheckRunSchema } from "./response-schemas.js";

export class CheckRuns {
  /** Check run ids by `name@sha`, so a check is created once and then updated. */
  private readonly ids = new Map<string, number>();
  /** Commits this process pushed: no check run can exist on them yet. */
  private readonly pushed = new Set<string>();

  constructor(private readonly calls: GitHubCalls) {}

  pushedCommit(sha: string): void {
    this.pushed.add(sha);
  }

  async set(check: CheckUpdate): Promise<void> {
    const key = `${check.name}@${check.sha}`;
    let id = this.ids.get(key);
    // A commit this process pushed carries no check run yet; any other may carry one an
    // earlier run made, found (all our names at once) rather than made twice.
    if (id === undefined && !this.pushed.has(check.sha)) {
      await this.find(check.sha);
      id = this.ids.get(key);
    }
    const fields = checkRunFields(check);
    const { octokit, repo } = this.calls;
    if (id === undefined) {
      const created = await this.calls.call("checks.create", CheckRunSchema, () =>
        octokit.rest.checks.create({ ...repo, head_sha: check.sha, ...fields }),
      );
      this.ids.set(key, created.id);
      return;
    }
    const existing = id;
    await this.calls.call("checks.update", NO_CONTENT, () =>
      octokit.rest.checks.update({ ...repo, check_run_id: existing, ...fields }),
    );
  }

  private async find(sha: string): Promise<void> {
    const { octokit, repo } = this.calls;
    const found = await this.calls.call("checks.listForRef", CheckRunListSchema, () =>
      octokit.rest.checks.listForRef({ ...repo, ref: sha, per_page: 100 }),
    );
    for (const run of found.check_runs) {
      if (run.head_sha === sha) this.ids.set(`${run.name}@${sha}`, run.id);
    }
  }
}

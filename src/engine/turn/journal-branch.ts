// Where the response journal lives so that the next run finds it (issue 15 point 5): besides
// the job area's file (response-journal.ts), every change is committed on the branch
// `cfa-journal/<N>` and pushed with a lease. The job area dies with a GitHub runner; the
// branch does not, so a run killed mid-turn (kill -9, a lost runner, the time limit) leaves
// its paid responses where the next run — fetching the job's branches — charges them once and
// replays them.
//
// Why a branch of its own, and not the job branch: the job branch takes one commit per turn
// (its audit trail), while the journal changes with every model response (up to
// limits.toolCallsPerTurn a turn); committing those on the job branch would bury the turns
// under hundreds of commits and interleave with the turns being applied. Why a branch and
// not a ref outside refs/heads/: a GitHub token with contents: write pushes branches; other
// namespaces are not documented for it. Why not `cfa/<N>-journal`: that is a valid task id's
// branch. Only the engine writes it, and every push names the commit it replaces.
//
// Cost: one commit and one push per model response, at most — pushes are coalesced: while one
// is in flight, further responses wait and go out together in the next. A push failing is
// logged, never the turn's failure: the job area's file still holds every response for this
// run, and a later push carries them. `npm run bench -- journal` measures pushes per turn.
//
// Layout: one blob per entry (`<seq>.json`, the entry's JSON line), so a push sends only the
// new response, a tree and a commit.

import { commitDateEnv, gitClient, type GitClient } from "../../git/git-client.js";
import type { Forge } from "../../ports/forge.js";
import type { Logger } from "../../ports/logger.js";
import { BOT_IDENTITY } from "../tree/job-repo.js";

export const journalBranch = (job: number) => `cfa-journal/${job}`;

/** The date of a commit of the empty journal (git refuses a zero timestamp). */
const EMPTY_DATE = new Date("2000-01-01T00:00:00.000Z");

export class JournalBranch {
  /** What the forge's branch holds as far as this run knows: the lease of the next push. */
  private pushed: string | null;
  /** The local branch's head (ahead of `pushed` while a push is pending). */
  private head: string | null;
  private readonly blobs = new Map<string, string>();
  private pending: readonly string[] | null = null;
  private loop: Promise<void> | null = null;
  /** Pushes made (bench and tests). */
  pushes = 0;

  private constructor(
    private readonly git: GitClient,
    private readonly forge: Forge,
    readonly branch: string,
    private readonly logger: Logger,
    head: string | null,
    /** Sets the date the next commit carries. */
    private readonly date: (at: Date) => void,
  ) {
    this.pushed = head;
    this.head = head;
  }

  /**
   * Opens the job's journal branch as the repository has it (the worker fetched it with the
   * job's branches) and returns it with the entries it holds, one JSON line each.
   */
  static async open(
    repoDir: string,
    forge: Forge,
    job: number,
    logger: Logger,
  ): Promise<{ branch: JournalBranch; lines: string[] }> {
    // The bot commits as itself (whatever the runner's git config says). Each commit is dated
    // by its newest entry, never by reading the job's clock: how many journal commits a run
    // makes depends on timing (pushes are coalesced), and a replay's records must not.
    let dated = EMPTY_DATE;
    const git = gitClient({
      baseDir: repoDir,
      config: [`user.name=${BOT_IDENTITY.name}`, `user.email=${BOT_IDENTITY.email}`],
      env: () => commitDateEnv(dated),
    });
    const name = journalBranch(job);
    const head = await revParse(git, `refs/heads/${name}`);
    const branch = new JournalBranch(git, forge, name, logger, head, (at) => (dated = at));
    if (head === null) return { branch, lines: [] };
    const listed = await git.raw(["ls-tree", head]);
    const lines: string[] = [];
    for (const row of listed.split("\n")) {
      const match = /^100644 blob ([0-9a-f]{40,64})\t(\d+)\.json$/.exec(row);
      if (!match) continue;
      const text = (await git.raw(["cat-file", "blob", match[1]!])).trim();
      branch.blobs.set(text, match[1]!);
      lines.push(text);
    }
    return { branch, lines };
  }

  /** Publishes the journal as `lines` now hold it (coalesced with any push in flight). */
  publish(lines: readonly string[]): void {
    this.pending = [...lines];
    this.loop ??= this.drain().finally(() => {
      this.loop = null;
    });
  }

  /** Waits until what was published last is pushed (or has failed, logged). */
  async flush(): Promise<void> {
    while (this.loop !== null) await this.loop;
  }

  /** At the job's end: the branch goes, with a lease (nothing left to replay). */
  async remove(): Promise<void> {
    await this.flush();
    if (this.head === null) return;
    await this.forge.deleteBranch(this.branch, this.pushed ?? this.head);
    await this.git.run(["update-ref", "-d", `refs/heads/${this.branch}`, this.head]);
    this.head = null;
    this.pushed = null;
  }

  private async drain(): Promise<void> {
    while (this.pending !== null) {
      const lines = this.pending;
      this.pending = null;
      try {
        await this.commitAndPush(lines);
      } catch (error) {
        this.logger.warn(
          `cfa/engine: the response journal could not be pushed to ${this.branch}: ${
            error instanceof Error ? error.message : String(error)
          }; the job area keeps it, the next push carries it`,
        );
      }
    }
  }

  private async commitAndPush(lines: readonly string[]): Promise<void> {
    const rows: string[] = [];
    for (const line of lines) {
      let oid = this.blobs.get(line);
      if (oid === undefined) {
        oid = (await this.git.raw(["hash-object", "-w", "--stdin"], { input: `${line}\n` })).trim();
        this.blobs.set(line, oid);
      }
      const seq = (JSON.parse(line) as { seq: number }).seq;
      rows.push(`100644 blob ${oid}\t${String(seq).padStart(8, "0")}.json`);
    }
    const tree = (
      await this.git.raw(["mktree"], { input: rows.length ? `${rows.join("\n")}\n` : "" })
    ).trim();
    const parents = this.head === null ? [] : ["-p", this.head];
    const newest = lines.reduce((at, l) => {
      const t = Date.parse((JSON.parse(l) as { at?: string }).at ?? "");
      return Number.isNaN(t) ? at : Math.max(at, t);
    }, 0);
    this.date(newest > 0 ? new Date(newest) : EMPTY_DATE);
    const commit = (
      await this.git.raw(
        ["commit-tree", tree, ...parents, "-m", `cfa: response journal (${lines.length})`],
        {},
      )
    ).trim();
    await this.git.raw(["update-ref", `refs/heads/${this.branch}`, commit, this.head ?? ""]);
    this.head = commit;
    try {
      await this.forge.pushBranch(this.branch, { sha: commit, expectedOld: this.pushed });
    } catch (error) {
      if ((error as Error | undefined)?.name !== "PushRejectedError") throw error;
      // Only the engine writes this branch: a refusal is our own push whose answer was lost,
      // or a run that died before knowing its push landed. Take the forge's head as the
      // lease and push ours (which holds every entry this run has) over it.
      const remote = await this.forge.readBranch(this.branch);
      await this.forge.pushBranch(this.branch, { sha: commit, expectedOld: remote });
    }
    this.pushed = commit;
    this.pushes += 1;
  }
}

async function revParse(git: GitClient, ref: string): Promise<string | null> {
  const result = await git.run(["rev-parse", "--verify", "--quiet", ref]);
  const out = result.stdout.toString("utf8").trim();
  return result.code === 0 && out !== "" ? out : null;
}

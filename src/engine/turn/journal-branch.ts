// Where the response journal lives so that the next run finds it: besides
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

import { gitClient, type GitClient } from "../../git/git-client.js";
import { looseBranchIdAt } from "../../git/head-from-files.js";
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
    const git = gitClient(repoDir);
    const name = journalBranch(job);
    // A loose ref is read without git (head-from-files.ts); else git is asked.
    const head =
      (await looseBranchIdAt(repoDir, `refs/heads/${name}`)) ??
      (await revParse(git, `refs/heads/${name}`));
    const branch = new JournalBranch(git, forge, name, logger, head);
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

  /**
   * Publishes the journal as `lines` now hold it (coalesced with any push in flight). `later`:
   * entries only forgotten, which wait for the next push (a new response's, or the wake's
   * flush) instead of a commit and push of their own (one `fast-import` a turn
   * fewer). A forgotten entry is one a commit already accounts (response-journal.ts): a
   * branch still holding it after a crash charges it no second time, as when a run died
   * before the forget's own push landed.
   */
  publish(lines: readonly string[], options: { later?: boolean } = {}): void {
    this.pending = [...lines];
    if (options.later === true && this.loop === null) return;
    this.loop ??= this.drain().finally(() => {
      this.loop = null;
    });
  }

  /** Pushes what was published last, if not yet, and waits until it is (or failed, logged). */
  async flush(): Promise<void> {
    if (this.pending !== null && this.loop === null) this.publish(this.pending);
    while (this.loop !== null) await this.loop;
  }

  /** At the job's end: the branch goes, with a lease (nothing left to replay). */
  async remove(): Promise<void> {
    // Nothing left to push: the branch is deleted, whatever it would have held.
    this.pending = null;
    while (this.loop !== null) await this.loop;
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
    const commit = await this.commitLines(lines);
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

  /**
   * Writes the journal's new commit and moves the local branch to it in one git process
   * (it was one `hash-object` per new entry, `mktree`, `commit-tree` and
   * `update-ref`, four or more processes a model response). `git fast-import`
   * (https://git-scm.com/docs/git-fast-import) takes the new entries as inline blobs, the
   * kept ones by id, the commit with its parent (`from`) and its dates, and updates the
   * branch only when the new commit contains what the branch holds ("--force: Force updating
   * modified existing branches, even if doing so would cause commits to be lost" — not
   * given); `get-mark` prints the ids it made. The objects it writes are loose when few
   * (fastimport.unpackLimit), as those of the commands it replaces were. The commit is the
   * very one `commit-tree` made: same tree, parent, identity, dates and message.
   */
  private async commitLines(lines: readonly string[]): Promise<string> {
    const script: string[] = [];
    const fresh: { line: string; mark: number }[] = [];
    const rows: string[] = [];
    for (const line of lines) {
      const seq = (JSON.parse(line) as { seq: number }).seq;
      const path = `${String(seq).padStart(8, "0")}.json`;
      let ref = this.blobs.get(line);
      if (ref === undefined) {
        const mark = fresh.length + 1;
        fresh.push({ line, mark });
        script.push("blob", `mark :${mark}`, data(`${line}\n`));
        ref = `:${mark}`;
      }
      rows.push(`M 100644 ${ref} ${path}`);
    }
    const newest = lines.reduce((at, l) => {
      const t = Date.parse((JSON.parse(l) as { at?: string }).at ?? "");
      return Number.isNaN(t) ? at : Math.max(at, t);
    }, 0);
    const when = `${Math.floor((newest > 0 ? newest : EMPTY_DATE.getTime()) / 1000)} +0000`;
    // The bot commits as itself (whatever the runner's git config says), each commit dated by
    // its newest entry, never by the job's clock: how many journal commits a run makes
    // depends on timing (pushes are coalesced), and a replay's records must not.
    const who = `${BOT_IDENTITY.name} <${BOT_IDENTITY.email}>`;
    const commitMark = fresh.length + 1;
    script.push(
      `commit refs/heads/${this.branch}`,
      `mark :${commitMark}`,
      `author ${who} ${when}`,
      `committer ${who} ${when}`,
      // commit-tree -m ends the message with a newline; so does this.
      data(`cfa: response journal (${lines.length})\n`),
      // Without `from` the first commit of a branch fast-import has not seen has no parent.
      ...(this.head === null ? [] : [`from ${this.head}`]),
      // The tree is exactly these entries, whatever the parent's held (forgotten ones go).
      "deleteall",
      ...rows,
      "",
      ...fresh.map(({ mark }) => `get-mark :${mark}`),
      `get-mark :${commitMark}`,
      "done",
      "",
    );
    const out = await this.git.raw(["fast-import", "--quiet", "--done"], {
      input: script.join("\n"),
    });
    const ids = out.split("\n").filter((l) => /^[0-9a-f]{40,64}$/u.test(l));
    if (ids.length !== fresh.length + 1) {
      throw new Error(
        `cfa/engine: git fast-import answered ${ids.length} ids, not ${fresh.length + 1}`,
      );
    }
    fresh.forEach(({ line }, i) => this.blobs.set(line, ids[i]!));
    return ids[fresh.length]!;
  }
}

/** A fast-import `data` command with its exact byte count. */
function data(text: string): string {
  return `data ${Buffer.byteLength(text, "utf8")}\n${text}`;
}

async function revParse(git: GitClient, ref: string): Promise<string | null> {
  const result = await git.run(["rev-parse", "--verify", "--quiet", ref]);
  const out = result.stdout.toString("utf8").trim();
  return result.code === 0 && out !== "" ? out : null;
}

// Within one wake the engine reads the issue, its comments, the job's pull request and its
// reviews many times (the start check, people's events, the outbox, the status comment, the
// gate). This wrapper reads them together once (Forge.readJob: on GitHub one GraphQL query,
// sparing the rate limit), applies the bot's own writes to what it read, and asks again only
// when people may have said something: `refresh()` before reading their events marks the view
// stale (events are cues, and each read re-reads GitHub), and a stale view is
// re-read only if Forge.issueChanged says the issue moved (on GitHub a conditional request,
// free when nothing did).
//
// A review submitted while a wake runs does not move the issue; it is read at the next
// wake, which its delivery (or the sweep) starts.

import type { Comment, Forge, JobView, PullRequest } from "../../ports/forge.js";
import { jobPaths } from "../../records/job-paths.js";

export interface MemoForge extends Forge {
  /** People's news may have come: the next read checks with the forge first. */
  refresh(): void;
}

interface Held {
  view: JobView;
  /**
   * refresh() was called since this view was read: the next read asks the forge whether the
   * issue moved. Every refresh marks it, even right after a read: a refresh is a promise
   * that news posted up to that moment is seen (an intervention polled at a model-call
   * boundary; a round's events), and a conditional request is cheap.
   */
  stale: boolean;
}

export function memoForge(
  inner: Forge,
  headOf: (issue: number) => string = (issue) => jobPaths(issue).branch,
): MemoForge {
  const held = new Map<number, Held>();
  const read = async (issue: number): Promise<JobView> => {
    let h = held.get(issue);
    if (h?.stale === true) {
      h.stale = false;
      if (await inner.issueChanged(issue)) h = undefined;
    }
    if (h === undefined) {
      h = { view: await inner.readJob(issue, headOf(issue)), stale: false };
      held.set(issue, h);
    }
    return h.view;
  };
  const byHead = (head: string) =>
    [...held.values()].find((h) => headOf(h.view.issue.number) === head);
  const byPull = (number: number) =>
    [...held.values()].find((h) => h.view.pullRequest?.number === number);
  const patchPull = (number: number, patch: Partial<PullRequest>) => {
    const h = byPull(number);
    if (h?.view.pullRequest)
      h.view = { ...h.view, pullRequest: { ...h.view.pullRequest, ...patch } };
  };

  const own = {
    refresh() {
      for (const h of held.values()) h.stale = true;
    },
    async readJob(issue: number, head: string) {
      if (head !== headOf(issue)) return inner.readJob(issue, head);
      return copy(await read(issue));
    },
    async issueChanged(issue: number) {
      const changed = await inner.issueChanged(issue);
      if (changed) held.delete(issue);
      return changed;
    },
    async getIssue(number: number) {
      return { ...(await read(number)).issue };
    },
    async listComments(issue: number) {
      // The job's pull request is an issue too: its comments come with the job's view.
      const pull = held.has(issue) ? undefined : byPull(issue);
      if (pull !== undefined) {
        const view = await read(pull.view.issue.number);
        if (view.pullComments !== undefined) return view.pullComments.map((c) => ({ ...c }));
        return inner.listComments(issue);
      }
      return (await read(issue)).comments.map((c) => ({ ...c }));
    },
    async findPullRequest(head: string) {
      const h = byHead(head);
      if (h === undefined) return inner.findPullRequest(head);
      const pr = (await read(h.view.issue.number)).pullRequest;
      return pr === null ? null : { ...pr };
    },
    async listReviews(number: number) {
      const h = byPull(number);
      if (h === undefined) return inner.listReviews(number);
      return (await read(h.view.issue.number)).reviews.map((r) => ({ ...r }));
    },
    async createComment(issue: number, body: string) {
      const created = await inner.createComment(issue, body);
      const h = held.get(issue);
      if (h) h.view = { ...h.view, comments: [...h.view.comments, created] };
      const pull = h === undefined ? byPull(issue) : undefined;
      if (pull?.view.pullComments !== undefined) {
        pull.view = { ...pull.view, pullComments: [...pull.view.pullComments, created] };
      }
      return created;
    },
    async updateComment(id: number, body: string) {
      await inner.updateComment(id, body);
      for (const h of held.values()) {
        if (!h.view.comments.some((c) => c.id === id)) continue;
        const comments: Comment[] = h.view.comments.map((c) => (c.id === id ? { ...c, body } : c));
        h.view = { ...h.view, comments };
      }
    },
    async createPullRequest(request: Parameters<Forge["createPullRequest"]>[0]) {
      const pr = await inner.createPullRequest(request);
      const h = byHead(request.head);
      if (h) h.view = { ...h.view, pullRequest: pr, reviews: [] };
      return pr;
    },
    async markReadyForReview(number: number) {
      await inner.markReadyForReview(number);
      patchPull(number, { draft: false });
    },
    async closePullRequest(number: number) {
      await inner.closePullRequest(number);
      patchPull(number, { state: "closed" });
    },
  };
  // Everything else goes to the forge itself, bound to it (adapters keep private state).
  return new Proxy(inner, {
    get(target, prop) {
      if (Object.hasOwn(own, prop)) return own[prop as keyof typeof own];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  }) as MemoForge;
}

function copy(view: JobView): JobView {
  return {
    issue: { ...view.issue },
    comments: view.comments.map((c) => ({ ...c })),
    pullRequest: view.pullRequest === null ? null : { ...view.pullRequest },
    reviews: view.reviews.map((r) => ({ ...r })),
    labelEvents: [...view.labelEvents],
    ...(view.pullComments === undefined
      ? {}
      : { pullComments: view.pullComments.map((c) => ({ ...c })) }),
  };
}

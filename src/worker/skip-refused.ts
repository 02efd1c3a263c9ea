// The worker's view of a job without what the app already refused. The app
// judges authority before dispatching and replies once to a command or review from someone
// without it, naming the comment or review in its reply's hidden block
// (comments/outsider-refusal-comment.ts); the engine, reading the same comment at its
// next wake, would refuse it again. So the engine's forge shows a comment or review that
// (a) a bot's comment says was refused, and (b) whose author the worker's own live check
// also finds without authority now, as one that asks nothing: a comment with no command in
// it, a review that only comments. Shown, not left out, so the engine's cursor still moves
// past it (it moves past every comment and review it lists), and the sweep, which wakes a
// job whose cursor is behind a person's newest comment or review (job-needs-wake.ts), does
// not wake it every hour for a comment it will never read. (b) keeps the engine's check the deciding one:
// anyone's bot can write a hidden block, and such a block can then only spare an outsider
// a second reply, never hide a command that counts. (The worker posting with the workflow's
// token does not know the app's login, so the author's login cannot be the test.)

import { readHiddenBlock } from "../comments/hidden-block.js";
import { mayAct } from "../github-events/may-act.js";
import { refusedByBlocks } from "../comments/outsider-refusal-comment.js";
import type { Comment, Forge, JobView, Permission, Review } from "../ports/forge.js";

export interface RefusalPolicy {
  approvers: readonly string[];
}

export function skipRefused<F extends Forge>(forge: F, job: number, policy: RefusalPolicy): F {
  const permissions = new Map<string, Promise<Permission>>();
  const permissionOf = (login: string) => {
    const key = login.toLowerCase();
    let known = permissions.get(key);
    if (known === undefined) permissions.set(key, (known = forge.permission(login)));
    return known;
  };
  const outsider = async (login: string) =>
    !mayAct(login, await permissionOf(login), policy.approvers);

  const refused = (comments: readonly Comment[]) =>
    refusedByBlocks(
      comments.filter((c) => c.author.type === "Bot").map((c) => readHiddenBlock(c.body)),
      job,
    );
  const quiet = async <T extends { id: number; author: { login: string } }>(
    items: readonly T[],
    ids: Set<number>,
    silence: (item: T) => T,
  ): Promise<T[]> => {
    const shown: T[] = [];
    for (const item of items) {
      shown.push(ids.has(item.id) && (await outsider(item.author.login)) ? silence(item) : item);
    }
    return shown;
  };
  const silentComment = (c: Comment): Comment => ({ ...c, body: "" });
  const silentReview = (r: Review): Review => ({
    ...r,
    state: "COMMENTED",
    body: "",
    comments: [],
  });
  const comments = async (issue: number, all: Comment[]): Promise<Comment[]> =>
    issue === job ? quiet(all, refused(all).comments, silentComment) : all;

  return new Proxy(forge, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      switch (property) {
        case "listComments":
          return async (issue: number) => comments(issue, await target.listComments(issue));
        case "readJob":
          return async (issue: number, head: string): Promise<JobView> => {
            const view = await target.readJob(issue, head);
            if (issue !== job) return view;
            // A `/cfa` an outsider wrote on the pull request is answered there.
            const ids = refused([...view.comments, ...(view.pullComments ?? [])]);
            return {
              ...view,
              comments: await quiet(view.comments, ids.comments, silentComment),
              reviews: await quiet(view.reviews, ids.reviews, silentReview),
              ...(view.pullComments === undefined
                ? {}
                : { pullComments: await quiet(view.pullComments, ids.comments, silentComment) }),
            };
          };
        case "listReviews":
          return async (pr: number): Promise<Review[]> => {
            const reviews = await target.listReviews(pr);
            const ids = refused(await target.listComments(job)).reviews;
            return ids.size === 0 ? reviews : quiet(reviews, ids, silentReview);
          };
        default:
          return (value as (...args: unknown[]) => unknown).bind(target);
      }
    },
  });
}

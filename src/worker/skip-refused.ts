// The worker's view of a job without what the app already refused (issue 18 §6). The app
// judges authority before dispatching and replies once to a command or review from someone
// without it, naming the comment or review in its reply's hidden block
// (github-events/outsider-refusal-comment.ts); the engine, reading the same comment at its
// next wake, would refuse it again. So the engine's forge leaves out a comment or review
// that (a) a bot's comment says was refused, and (b) whose author the worker's own live
// check also finds without authority now. (b) keeps the engine's check the deciding one:
// anyone's bot can write a hidden block, and such a block can then only spare an outsider
// a second reply, never hide a command that counts. (The worker posting with the workflow's
// token does not know the app's login, so the author's login cannot be the test.)

import { readHiddenBlock } from "../engine/render/hidden-block.js";
import { mayAct } from "../github-events/may-act.js";
import { refusedByBlocks } from "../github-events/outsider-refusal-comment.js";
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
  const keep = async <T extends { id: number; author: { login: string } }>(
    items: readonly T[],
    ids: Set<number>,
  ): Promise<T[]> => {
    const kept: T[] = [];
    for (const item of items) {
      if (ids.has(item.id) && (await outsider(item.author.login))) continue;
      kept.push(item);
    }
    return kept;
  };
  const comments = async (issue: number, all: Comment[]): Promise<Comment[]> =>
    issue === job ? keep(all, refused(all).comments) : all;

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
            const ids = refused(view.comments);
            return {
              ...view,
              comments: await keep(view.comments, ids.comments),
              reviews: await keep(view.reviews, ids.reviews),
            };
          };
        case "listReviews":
          return async (pr: number): Promise<Review[]> => {
            const reviews = await target.listReviews(pr);
            const ids = refused(await target.listComments(job)).reviews;
            return ids.size === 0 ? reviews : keep(reviews, ids);
          };
        default:
          return (value as (...args: unknown[]) => unknown).bind(target);
      }
    },
  });
}

// Within one wake the engine reads the issue and its comments many times (the start check,
// people's events, the outbox, the status comment). This wrapper keeps the last answer and
// applies the bot's own writes to it, so a wake asks GitHub again only when it wants fresh
// news of people: `refresh()` before reading their events (DESIGN.md: events are cues, and
// each read re-reads GitHub).

import type { Comment, Forge, Issue } from "../ports/forge.js";

export interface MemoForge extends Forge {
  /** Forget what was read: the next read asks the forge. */
  refresh(): void;
}

export function memoForge(inner: Forge): MemoForge {
  const issues = new Map<number, Issue>();
  const comments = new Map<number, Comment[]>();
  const byId = new Map<number, number>();
  const own = {
    refresh() {
      issues.clear();
      comments.clear();
    },
    async getIssue(number: number) {
      let issue = issues.get(number);
      if (!issue) issues.set(number, (issue = await inner.getIssue(number)));
      return issue;
    },
    async listComments(issue: number) {
      let list = comments.get(issue);
      if (!list) {
        list = await inner.listComments(issue);
        comments.set(issue, list);
        for (const c of list) byId.set(c.id, issue);
      }
      return [...list];
    },
    async createComment(issue: number, body: string) {
      const created = await inner.createComment(issue, body);
      comments.get(issue)?.push(created);
      byId.set(created.id, issue);
      return created;
    },
    async updateComment(id: number, body: string) {
      await inner.updateComment(id, body);
      const issue = byId.get(id);
      const list = issue === undefined ? undefined : comments.get(issue);
      const at = list?.findIndex((c) => c.id === id) ?? -1;
      if (list && at >= 0) list[at] = { ...list[at]!, body };
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

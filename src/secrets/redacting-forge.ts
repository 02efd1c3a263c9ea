// A Forge whose every outgoing text (comments, pull request titles and bodies, check-run
// summaries) passes a function first: the redactor (docs/contributing.md, "Conventions"), so
// no secret leaves, and the outbound filter after it (src/comments/outbound-forge.ts), so
// nothing posted pings or commands anyone. Entry points wrap the forge they build, so no
// engine path can post around it.

import type { CheckUpdate, Forge } from "../ports/forge.js";
import type { Redactor } from "./redactor.js";

type Clean<F> = F extends (...args: infer A) => unknown
  ? ((args: A, redact: (text: string, where: string) => string) => A) | "reads"
  : "value";

/**
 * Every member of the port, classified: how a call's arguments are cleaned, or why it needs
 * no cleaning. A member added to Forge fails to compile here until someone decides.
 */
const CLEAN: { [K in keyof Forge]-?: Clean<Forge[K]> } = {
  botLogin: "value",
  repoUrl: "value",
  getIssue: "reads",
  listComments: "reads",
  readJob: "reads",
  issueChanged: "reads",
  createComment: ([issue, body], r) => [issue, r(body, "a comment")],
  updateComment: ([id, body], r) => [id, r(body, "a comment")],
  react: "reads", // a fixed reaction name
  permission: "reads",
  defaultBranch: "reads",
  // The commits were made with redacted messages (src/engine/tree/job-repo.ts).
  pushBranch: "reads",
  deleteBranch: "reads",
  readBranch: "reads",
  findPullRequest: "reads",
  createPullRequest: ([pr], r) => [
    { ...pr, title: r(pr.title, "a pull request title"), body: r(pr.body, "a pull request body") },
  ],
  updatePullRequest: ([number, update], r) => [
    number,
    {
      ...update,
      ...(update.title === undefined ? {} : { title: r(update.title, "a pull request title") }),
      ...(update.body === undefined ? {} : { body: r(update.body, "a pull request body") }),
    },
  ],
  markReadyForReview: "reads",
  closePullRequest: "reads",
  requestReview: "reads", // logins
  listReviews: "reads",
  setCheck: ([check], r) => [
    {
      ...check,
      ...(check.title !== undefined ? { title: r(check.title, "a check run") } : {}),
      summary: r(check.summary, "a check run"),
    } as CheckUpdate,
  ],
  readConfig: "reads",
  readDefaultBranchFile: "reads",
};

/** `forge` with its writes redacted; every other member (and any extra, e.g. apiCalls) as is. */
export function redactingForge<F extends Forge>(forge: F, redactor: Redactor): F {
  return mapForgeTexts(forge, (text, where) => redactor.redact(text, where));
}

/** `forge` with every text it writes passed through `clean` (`where` names the channel). */
export function mapForgeTexts<F extends Forge>(
  forge: F,
  clean: (text: string, where: string) => string,
): F {
  const redact = clean;
  return new Proxy(forge, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const clean = (CLEAN as Record<PropertyKey, unknown>)[property];
      const method = value as (...args: unknown[]) => unknown;
      if (typeof clean !== "function") return method.bind(target);
      const cleanArgs = clean as (args: unknown[], r: typeof redact) => unknown[];
      return (...args: unknown[]) => method.apply(target, cleanArgs(args, redact));
    },
  });
}

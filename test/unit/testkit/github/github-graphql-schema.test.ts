// The fake GitHub checks GraphQL queries as GitHub does (github-graphql-schema.ts): the
// queries the forge sends pass, and the mistakes GitHub would refuse are refused.

import { describe, expect, it } from "vitest";
import {
  JOB_VIEW_QUERY,
  MARK_READY_MUTATION,
  OLDER_COMMENTS_QUERY,
  OLDER_REVIEWS_QUERY,
} from "../../../../src/adapters/github/job-view-query.js";
import { checkGithubQuery } from "../../../support/github/github-graphql-schema.js";

describe("GitHub's GraphQL checks", () => {
  it("the forge's queries are valid against GitHub's published schema", () => {
    for (const query of [
      JOB_VIEW_QUERY,
      OLDER_COMMENTS_QUERY,
      OLDER_REVIEWS_QUERY,
      MARK_READY_MUTATION,
    ]) {
      expect(checkGithubQuery(query, { before: "x" }).errors).toEqual([]);
    }
  });

  it("refuses a field the schema does not have, with GitHub's kind of message", () => {
    const { errors } = checkGithubQuery(
      'query { repository(owner: "o", name: "r") { issue(number: 1) { titel } } }',
      {},
    );
    expect(errors.join("\n")).toMatch(/Cannot query field "titel" on type "Issue"/);
  });

  it("refuses a connection without `first` or `last`, or asking for more than 100", () => {
    const missing = checkGithubQuery(
      'query { repository(owner: "o", name: "r") { issue(number: 1) { comments { totalCount } } } }',
      {},
    );
    expect(missing.errors).toEqual([
      "You must provide a `first` or `last` value to properly paginate the `comments` connection.",
    ]);
    const tooMany = checkGithubQuery(
      'query($n: Int!) { repository(owner: "o", name: "r") { issue(number: 1) { comments(last: $n) { totalCount } } } }',
      { n: 101 },
    );
    expect(tooMany.errors[0]).toMatch(/exceeds the `first`\/`last` limit of 100 records/);
  });
});

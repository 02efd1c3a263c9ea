// Record comments over the usual records of job 3 (a gate on PLAN.md, a question from the
// intent lead), changed only where a test says: what the test is about stands out.

import { gateComment, questionComment } from "../../../src/comments/record-comments.js";

type GateRecord = Parameters<typeof gateComment>[0];
type QuestionRecord = Parameters<typeof questionComment>[0];

export const GATE_SHA = "0123456789abcdef0123456789abcdef01234567";

/** Gate q2 of job 3 on PLAN.md at GATE_SHA, asking @ana. */
export const gateOf = (changes: Partial<GateRecord> = {}): string =>
  gateComment({
    job: 3,
    seq: 2,
    id: "q2",
    artifact: "PLAN.md",
    sha: GATE_SHA,
    state: "PLAN",
    reviewers: ["ana"],
    prUrl: "https://github.com/o/r/pull/4",
    content: "# Plan",
    ...changes,
  });

/** Question q1 of job 3 from the intent lead, asking @ana. */
export const questionOf = (changes: Partial<QuestionRecord> = {}): string =>
  questionComment({
    job: 3,
    seq: 1,
    id: "q1",
    from: "intent-lead",
    text: "Which DB?",
    asked: "ana",
    ...changes,
  });

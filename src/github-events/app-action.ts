// What the app may do about a delivery: effects a decider returns and one place runs. The
// app never commits and never changes a job itself (one writer per job: the worker); it
// acknowledges, cues the worker, and refuses a start it cannot allow (an event is a cue to
// re-read GitHub, never a change to apply).

import type { Permission } from "../ports/forge.js";

export type AppAction =
  /** 👀 on the comment or issue: GitHub keeps one reaction per user and content. */
  | { kind: "react"; target: { comment: number } | { issue: number } }
  /** Cancel the job's in-progress worker runs, so a withdrawal need not wait for a turn. */
  | { kind: "cancel-runs"; job: number }
  /** A cue: run the worker for the job (workflow_dispatch); it re-reads GitHub itself. */
  | { kind: "dispatch"; job: number }
  /** One short comment: this person may not start a job; nothing was started. */
  | { kind: "refuse-start"; job: number; login: string; permission: Permission }
  /** One reply to a command from someone without authority; no worker run. */
  | {
      kind: "refuse-command";
      job: number;
      /** Where the command was written when not the job's issue: its pull request. */
      on?: number;
      comment: number;
      login: string;
      permission: Permission;
      command: string | null;
    }
  /** One reply to a gate review from someone without authority; no worker run. */
  | { kind: "refuse-review"; job: number; review: number; login: string; permission: Permission }
  /** One line to the author of a dismissed review: what it means for the job. No cue. */
  | {
      kind: "reply-dismissed";
      job: number;
      review: number;
      reviewer: string;
      dismissedBy: string;
      commit: string | null;
    };

export interface Decision {
  actions: AppAction[];
  /**
   * What the effects answer (a comment, a review, a job's start): a later delivery that
   * names any of these takes no effect (at most one effect per comment or review id).
   */
  keys: string[];
  /** Why, in a few words: logged with the delivery. */
  note: string;
}

import { describe, expect, it } from "vitest";
import type { AppAction } from "../../../src/github-events/app-action.js";
import { readAppEvent } from "../../../src/github-events/app-event.js";
import { decideDelivery, type Authority } from "../../../src/github-events/decide-delivery.js";
import { mayAct } from "../../../src/github-events/may-act.js";
import { screenEvent } from "../../../src/github-events/screen-event.js";
import { triageEvent } from "../../../src/github-events/triage-event.js";
import { defaultConfig } from "../../../src/config/index.js";
import type { AppEvent } from "../../../src/github-events/app-event.js";
import { PERMISSIONS, type Permission } from "../../../src/ports/forge.js";
import { examplePayload } from "../../support/github/index.js";
import { commented, labelled, read, reviewed } from "../../support/github-events/events.js";

const config = defaultConfig();

/** The whole pure path of one delivery: screen → triage → (live permission) → decide. */
function effects(event: AppEvent, permission: Permission | null, approvers: string[] = []) {
  const screen = screenEvent(event);
  if (!screen.pass) return { ignored: screen.reason };
  const triage = triageEvent(event, config);
  if (!triage.act) return { ignored: triage.reason };
  let authority: Authority | null = null;
  if (triage.needsAuthority) {
    const p = permission ?? "none";
    authority = { permission: p, mayAct: mayAct(triage.actor.login, p, approvers) };
  }
  return decideDelivery(event, triage, authority);
}

const kinds = (actions: AppAction[]) => actions.map((a) => a.kind);

/** Wes edits comment 901 on job 7's issue from `from` to `body`. */
const edited = (body: string, from: string) =>
  read(
    "issue_comment",
    examplePayload("issue_comment", "edited", {
      issue: { number: 7, labels: [{ name: "cfa" }], state: "open" },
      comment: { id: 901, body, user: { login: "wes", type: "User" } },
      changes: { body: { from } },
    }),
  );

describe("the permission matrix: who may start, approve, withdraw, intervene, answer", () => {
  const acting: Permission[] = ["admin", "maintain", "write"];
  const cases = PERMISSIONS.map((p) => [p, acting.includes(p)] as const);

  it.each(cases)("start by %s: allowed=%s", (permission, allowed) => {
    const decision = effects(labelled(`u-${permission}`), permission);
    if (!("actions" in decision)) throw new Error(decision.ignored);
    expect(kinds(decision.actions)).toEqual(allowed ? ["dispatch", "react"] : ["refuse-start"]);
    if (!allowed) {
      expect(decision.actions[0]).toMatchObject({ login: `u-${permission}`, permission });
    }
  });

  it.each(cases)("/withdraw by %s: allowed=%s", (permission, allowed) => {
    const decision = effects(commented("/withdraw not needed", `u-${permission}`), permission);
    if (!("actions" in decision)) throw new Error(decision.ignored);
    // Without authority: no 👀, no cancelled run, no run at all, so an outsider's commands
    // spend no runner; the app's one reply.
    expect(kinds(decision.actions)).toEqual(
      allowed ? ["cancel-runs", "dispatch", "react"] : ["refuse-command"],
    );
    if (!allowed) {
      expect(decision.actions[0]).toMatchObject({
        comment: 901,
        login: `u-${permission}`,
        permission,
        command: "withdraw",
      });
    }
  });

  it.each(cases)("/intervene by %s: allowed=%s", (permission, allowed) => {
    const decision = effects(commented("/intervene use SQLite", `u-${permission}`), permission);
    if (!("actions" in decision)) throw new Error(decision.ignored);
    expect(kinds(decision.actions)).toEqual(allowed ? ["dispatch", "react"] : ["refuse-command"]);
  });

  it.each(cases)("/answer by %s: allowed=%s", (permission, allowed) => {
    const decision = effects(commented("/answer q1 yes, both", `u-${permission}`), permission);
    if (!("actions" in decision)) throw new Error(decision.ignored);
    expect(kinds(decision.actions)).toEqual(allowed ? ["dispatch", "react"] : ["refuse-command"]);
    expect(decision.keys).toEqual(["comment:901"]);
  });

  it.each(cases)(
    "an approval by %s: a cue for the worker to judge when allowed=%s, else the app's one reply",
    (permission, allowed) => {
      const decision = effects(reviewed("approved", `u-${permission}`), permission);
      if (!("actions" in decision)) throw new Error(decision.ignored);
      expect(kinds(decision.actions)).toEqual(allowed ? ["dispatch"] : ["refuse-review"]);
      expect(decision.keys).toEqual(["review:501"]);
    },
  );

  it("an approver listed in approvers acts without write access", () => {
    const decision = effects(commented("/withdraw", "Guest"), "read", ["guest"]);
    if (!("actions" in decision)) throw new Error(decision.ignored);
    expect(kinds(decision.actions)).toEqual(["cancel-runs", "dispatch", "react"]);
  });

  it.each([
    ["start", labelled("dependabot[bot]", "Bot")],
    ["withdraw", commented("/withdraw", "dependabot[bot]", "Bot")],
    ["intervene", commented("/intervene x", "dependabot[bot]", "Bot")],
    ["answer", commented("/answer yes", "dependabot[bot]", "Bot")],
    ["approve", reviewed("approved", "dependabot[bot]", "Bot")],
  ])("a bot's %s is ignored, even with write access", (_what, event) => {
    expect(effects(event, "write")).toEqual({
      ignored: "@dependabot[bot] is a bot not listed in allowBots",
    });
  });

  it("a bot listed in allowBots acts like a person with its permission", () => {
    const event = commented("/withdraw", "renovate[bot]", "Bot");
    const triage = triageEvent(event, { ...config, allowBots: ["Renovate[bot]"] });
    expect(triage).toMatchObject({ act: true, intent: "command", needsAuthority: true });
  });

  it("a login in approvers acts without write access, compared case-insensitively", () => {
    const decision = effects(commented("/withdraw", "Octo-Reader"), "read", ["octo-reader"]);
    if (!("actions" in decision)) throw new Error(decision.ignored);
    expect(kinds(decision.actions)).toEqual(["cancel-runs", "dispatch", "react"]);
  });
});

describe("what the app ignores before it reads anything from GitHub", () => {
  it("ordinary conversation is not a command", () => {
    expect(effects(commented("Thanks, looks good!", "wes"), null)).toEqual({
      ignored: "the comment is not a command",
    });
  });

  it("a quoted command is not a command (only the first line counts)", () => {
    expect(screenEvent(commented("I think\n/withdraw", "wes"))).toEqual({
      pass: false,
      reason: "the comment is not a command",
    });
  });

  it("an edit that keeps the same command takes no second effect", () => {
    const event = edited("/intervene use SQLite!", "/intervene use SQLite!");
    expect(screenEvent(event)).toMatchObject({ pass: false });
  });

  it("an edit that turns a comment into a command is one", () => {
    const event = edited("/withdraw", "hmm");
    expect(screenEvent(event)).toEqual({ pass: true });
  });

  it("an edited command is a cue only: no 👀 and no cancelled run, since only the worker knows whether it has read the comment", () => {
    const event = edited("/withdraw", "hmm");
    expect(effects(event, "admin")).toMatchObject({
      actions: [{ kind: "dispatch", job: 7 }],
      keys: ["comment:901"],
    });
  });

  it("a review that only comments answers no gate", () => {
    expect(screenEvent(reviewed("commented", "wes"))).toMatchObject({ pass: false });
  });

  it("a dismissed review gets its author one line, once, and cues nothing", () => {
    const dismissed = read(
      "pull_request_review",
      examplePayload("pull_request_review", "dismissed", {
        review: { id: 88, user: { login: "ana", type: "User" }, commit_id: "a".repeat(40) },
        sender: { login: "maintainer", type: "User" },
        pull_request: { head: { ref: "cfa/7" } },
      }),
    );
    const decision = effects(dismissed, null);
    if (!("actions" in decision)) throw new Error(decision.ignored);
    expect(decision.actions).toEqual([
      {
        kind: "reply-dismissed",
        job: 7,
        review: 88,
        reviewer: "ana",
        dismissedBy: "maintainer",
        commit: "a".repeat(40),
      },
    ]);
    expect(decision.keys).toEqual(["dismissed:88"]);
  });

  it("a command on a pull request other than /cfa, and a review of a pull request that is not a job's, are not read", () => {
    const onPull = (body: string) =>
      readAppEvent(
        "issue_comment",
        examplePayload("issue_comment", "created", {
          issue: { pull_request: { url: "https://api.github.com/repos/o/r/pulls/3" } },
          comment: { body },
        }),
      );
    const withdraw = onPull("/withdraw");
    if (!withdraw.ok) throw new Error("test: a pull request's comment is read");
    expect(withdraw.event).toMatchObject({ kind: "comment", pull: { job: null } });
    expect(screenEvent(withdraw.event)).toEqual({
      pass: false,
      reason: "on a pull request only `/cfa` is read as a command",
    });
    // Positive control: `/cfa` there passes, its job still to be looked up.
    const request = onPull("/cfa also greet in French");
    if (!request.ok) throw new Error("test: a pull request's comment is read");
    expect(screenEvent(request.event)).toEqual({ pass: true });
    const other = readAppEvent(
      "pull_request_review",
      examplePayload("pull_request_review", "submitted", {
        review: { state: "approved" },
        pull_request: { head: { ref: "cfa/7-api" } },
      }),
    );
    expect(other).toMatchObject({ ok: false, reason: expect.stringContaining("not a job's") });
  });

  it("a fork's branch named cfa/<N> is not the job's", () => {
    const fork = readAppEvent(
      "pull_request_review",
      examplePayload("pull_request_review", "submitted", {
        review: { state: "approved" },
        pull_request: { head: { ref: "cfa/7", repo: { full_name: "mallory/Hello-World" } } },
      }),
    );
    expect(fork).toEqual({ ok: false, reason: "pull request #2 comes from another repository" });
  });

  it("a label other than the configured one starts nothing", () => {
    const event = read("issues", examplePayload("issues", "labeled", { label: { name: "bug" } }));
    expect(triageEvent(event, config)).toEqual({ act: false, reason: "the label is not `cfa`" });
    expect(triageEvent(event, { ...config, label: "bug" })).toMatchObject({ intent: "start" });
  });

  it("commands on an issue that is not a job are ignored", () => {
    const event = read(
      "issue_comment",
      examplePayload("issue_comment", "created", {
        issue: { labels: [{ name: "bug" }] },
        comment: { body: "/withdraw" },
      }),
    );
    expect(triageEvent(event, config)).toEqual({
      act: false,
      reason: "the issue has no `cfa` label",
    });
  });
});

describe("stopping a job and other cues", () => {
  it("removing the label or closing the issue cancels the job's runs and cues the worker", () => {
    const unlabeled = read(
      "issues",
      examplePayload("issues", "unlabeled", { label: { name: "cfa" }, issue: { labels: [] } }),
    );
    expect(effects(unlabeled, null)).toMatchObject({
      actions: [
        { kind: "cancel-runs", job: 1 },
        { kind: "dispatch", job: 1 },
      ],
    });
    const closed = read(
      "issues",
      examplePayload("issues", "closed", { issue: { labels: [{ name: "cfa" }] } }),
    );
    expect(kinds((effects(closed, null) as { actions: AppAction[] }).actions)).toEqual([
      "cancel-runs",
      "dispatch",
    ]);
  });

  it("a malformed command from someone who may act is cued without a reaction: the worker answers it", () => {
    const decision = effects(commented("/intervene", "wes"), "write");
    expect(decision).toMatchObject({
      actions: [{ kind: "dispatch", job: 7 }],
      keys: ["comment:901"],
    });
  });

  it("a malformed command from someone who may not act gets the app's one reply, no run", () => {
    const decision = effects(commented("/intervene", "rea"), "read");
    expect(decision).toMatchObject({
      actions: [{ kind: "refuse-command", job: 7, comment: 901, command: null }],
      keys: ["comment:901"],
    });
  });

  it("a job's pull request closed unmerged is cued; merged, it is not", () => {
    const closed = (merged: boolean) =>
      read(
        "pull_request",
        examplePayload("pull_request", "closed", {
          pull_request: { merged, head: { ref: "cfa/7" } },
        }),
      );
    expect(effects(closed(false), null)).toMatchObject({ actions: [{ kind: "dispatch", job: 7 }] });
    expect(effects(closed(true), null)).toMatchObject({
      ignored: expect.stringContaining("merged"),
    });
  });

  it("decide refuses to guess a permission it needs", () => {
    const event = labelled("wes");
    const triage = triageEvent(event, config);
    if (!triage.act) throw new Error("expected to act");
    expect(() => decideDelivery(event, triage, null)).toThrow(/needs @wes's permission/);
  });
});

describe("/cfa <request> (docs/protocol.md#jobs-and-states): a follow-up's request, on the issue or the pull request", () => {
  /** `/cfa` on job 7's pull request #12, whose job the lookup found. */
  const onPull = (body: string, login: string, job: number | null = 7): AppEvent => {
    const event = read(
      "issue_comment",
      examplePayload("issue_comment", "created", {
        issue: { number: 12, labels: [], state: "open", pull_request: { url: "x" } },
        comment: { id: 902, body, user: { login, type: "User" } },
        sender: { login, type: "User" },
      }),
    );
    if (event.kind !== "comment") throw new Error("test: a comment");
    return { ...event, pull: { number: 12, job } };
  };
  const closed = (body: string): AppEvent =>
    read(
      "issue_comment",
      examplePayload("issue_comment", "created", {
        issue: { number: 7, labels: [{ name: "cfa" }], state: "closed" },
        comment: { id: 903, body, user: { login: "wes", type: "User" } },
        sender: { login: "wes", type: "User" },
      }),
    );

  it("a writer's /cfa on the pull request cues job 7's worker and acknowledges the comment", () => {
    const decision = effects(onPull("/cfa greet in French too", "wes"), "write");
    if (!("actions" in decision)) throw new Error(decision.ignored);
    expect(decision.actions).toEqual([
      { kind: "dispatch", job: 7 },
      { kind: "react", target: { comment: 902 } },
    ]);
  });

  it("an outsider's /cfa on the pull request gets one reply there and no run", () => {
    const decision = effects(onPull("/cfa greet in French too", "rea"), "read");
    if (!("actions" in decision)) throw new Error(decision.ignored);
    expect(decision.actions).toEqual([
      expect.objectContaining({ kind: "refuse-command", job: 7, on: 12, comment: 902 }),
    ]);
  });

  it("a pull request that is not a job's is not acted on", () => {
    expect(effects(onPull("/cfa x", "wes", null), "write")).toEqual({
      ignored: "the pull request's job is not known",
    });
  });

  it("on a closed issue (a merged pull request closes it) /cfa still reaches the worker, which answers; other commands do not", () => {
    const request = effects(closed("/cfa one more thing"), "write");
    if (!("actions" in request)) throw new Error(request.ignored);
    expect(kinds(request.actions)).toEqual(["dispatch", "react"]);
    expect(effects(closed("/intervene one more thing"), "write")).toEqual({
      ignored: "the issue is closed",
    });
  });

  it("/cfa with nothing after it is a malformed command: the worker answers a writer, the app an outsider", () => {
    const writer = effects(commented("/cfa", "wes"), "write");
    if (!("actions" in writer)) throw new Error(writer.ignored);
    expect(kinds(writer.actions)).toEqual(["dispatch"]);
    const outsider = effects(commented("/cfa", "rea"), "read");
    if (!("actions" in outsider)) throw new Error(outsider.ignored);
    expect(kinds(outsider.actions)).toEqual(["refuse-command"]);
  });
});

// What the bot posts never pings or closes anything on an agent's or a person's behalf. Every
// renderer that carries untrusted text, and every posted channel, is fed the bypasses that got
// through before (an inline ``` that is not a fence, escaped backticks, a backtick right before
// `@`, HTML, entities, emphasis, a link, a keyword in a title) and checked the way GitHub would act
// on it (test/support/adversarial/github-notices.ts: GFM render, html-pipeline's mention patterns,
// the documented closing keywords). Positive controls: the same texts without the outbound filter
// do notify; the bot's own marked mentions and its `Closes #<job>` still do; forged marks do not;
// the filtered text reads the same.

import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalForge } from "../../src/adapters/local/local-forge.js";
import { outboundForge } from "../../src/comments/outbound-forge.js";
import { outboundText } from "../../src/comments/outbound-text.js";
import { ownClosing, ownMention, remark, unmark } from "../../src/comments/own-marks.js";
import { jobChecks } from "../../src/engine/publish/checks.js";
import { initialEngineState, withEngineState } from "../../src/records/engine-state.js";
import {
  gateComment,
  noticeComment,
  questionComment,
  refusalComment,
  reminderComment,
  transitionComment,
} from "../../src/comments/record-comments.js";
import { renderStatusComment } from "../../src/comments/status-comment.js";
import { heldBackNotice } from "../../src/engine/tree/workflow-files.js";
import { createGitHubCues } from "../../src/github-events/github-cues.js";
import { newJobRecord } from "../../src/protocol/job-record.js";
import { transition } from "../../src/protocol/transition.js";
import { Redactor, redact } from "../../src/secrets/index.js";
import { failureComment } from "../../src/comments/failure-comment.js";
import { cases } from "../support/adversarial/count.js";
import { githubNotices, visibleText } from "../support/adversarial/github-notices.js";

type Kind = "mention" | "closing";

/** The bypasses, each with what GitHub would do with it unfiltered. */
const PAYLOADS: readonly [name: string, text: string, kind: Kind][] = [
  ["a plain mention", "ping @erin please", "mention"],
  ["a team", "cc @acme/security-team", "mention"],
  ["an inline ``` that is not a fence", "see ``` @erin", "mention"],
  ["escaped backticks", "\\`x @erin \\`", "mention"],
  ["a backtick right before @", "`@erin", "mention"],
  ["HTML around it", "<b>@erin</b>", "mention"],
  ["a block of HTML", "<div>\n@erin\n</div>", "mention"],
  ["a decimal entity", "&#64;erin", "mention"],
  ["a hex entity", "&#x40;acme/security-team", "mention"],
  ["a named entity", "&commat;erin", "mention"],
  ["emphasis", "**@erin**", "mention"],
  ["emphasis closing right before @", "_x_@erin", "mention"],
  ["a Markdown escape", "\\@erin", "mention"],
  ["a non-ASCII letter before @", "é@erin", "mention"],
  ["a heading", "# @erin", "mention"],
  ["a table cell", "| a |\n|---|\n| @erin |", "mention"],
  ["a file name", ".cfa/jobs/1/notes for @erin and @acme/security-team", "mention"],
  ["a keyword", "Fixes #2", "closing"],
  ["a keyword with a colon, in capitals", "CLOSES: #2", "closing"],
  ["another repository's issue", "resolved octo/repo#2", "closing"],
  ["an issue URL", "fix https://github.com/octo/repo/issues/2", "closing"],
  ["a keyword in emphasis", "**Fixes** #2", "closing"],
  ["a keyword spelled with an entity", "F&#105;xes #2", "closing"],
  ["a reference spelled with an entity", "fixes &#35;2", "closing"],
];

const at = "2026-11-22T10:00:00.000Z";

function job(reason: string) {
  const engine = initialEngineState("ana");
  const record = transition(
    withEngineState(newJobRecord({ job: 7, title: "t", at }), engine),
    "APPROVED_INTENT",
    { at, by: "intent-lead@state:intent:1", reason },
  );
  return { record, engine };
}

type EngineState = ReturnType<typeof initialEngineState>;

/** Job 7's status comment (its approval's reason `reason`), its engine state as `change` leaves it. */
function status(
  change: (engine: EngineState) => EngineState,
  more: Partial<Parameters<typeof renderStatusComment>[0]> = {},
  reason = "r",
): string {
  const { record, engine } = job(reason);
  return renderStatusComment({
    ...{ job: record, engine: change(engine), waitingOn: "x", links: { artifacts: [] } },
    ...more,
  });
}

/** Every renderer of a posted text, fed the payload where untrusted text goes. */
const RENDERERS: readonly [name: string, render: (p: string) => string][] = [
  [
    "gate: the artifact",
    (p) =>
      gateComment({
        ...{ job: 7, seq: 1, id: "q1", artifact: "PLAN.md", sha: "a".repeat(40) },
        ...{ state: "PLAN", reviewers: ["ana"], prUrl: "https://x/pull/1", content: p },
      }),
  ],
  [
    "gate: GitHub's reason for a refused review request",
    (p) =>
      gateComment({
        ...{ job: 7, seq: 1, id: "q1", artifact: "PLAN.md", sha: "a".repeat(40) },
        ...{ state: "PLAN", reviewers: ["ana"], prUrl: "https://x/pull/1", content: "x" },
        unrequested: [{ login: "bob", reason: p }],
      }),
  ],
  [
    "question",
    (p) => questionComment({ job: 7, seq: 1, id: "q1", from: "lead", text: p, asked: "ana" }),
  ],
  [
    "transition: reason",
    (p) =>
      transitionComment({
        ...{ job: 7, seq: 1, from: "EXECUTE", action: "FAILURE", to: "FAILURE" },
        ...{ by: "engine", reason: `Failed: ${p}` },
      } as Parameters<typeof transitionComment>[0]),
  ],
  [
    "task dropped notice (the verifier's issues)",
    (p) => noticeComment({ job: 7, seq: 1, text: `**Task dropped**\n\n- ${p}` }),
  ],
  ["refusal", (p) => refusalComment({ job: 7, seq: 1, login: "mallory", reason: p })],
  ["status: waiting-on line and history", (p) => status((engine) => engine, { waitingOn: p }, p)],
  [
    "status: held-back workflow files",
    (p) => status((engine) => engine, { notices: [heldBackNotice([`.github/workflows/${p}`])] }),
  ],
  ["worker failure", (p) => failureComment({ job: 7, reason: p, runUrl: null, runKey: "1.1" })],
  [
    "check-run summaries",
    (p) =>
      jobChecks(job(p).record, p, "a".repeat(40))
        .map((c) => c.summary)
        .join("\n\n"),
  ],
  ["pull request title (the issue's title)", (p) => `cfa #7: ${p}`],
  [
    "status: a pause's reason",
    (p) => status((engine) => ({ ...engine, paused: { by: "ana", since: at, reason: p } })),
  ],
  [
    "status: a decision's note in the history",
    (p) =>
      status((engine) => ({
        ...engine,
        escalations: {
          q1: {
            ...{ caller: "lead", kind: "gate" as const, state: "INTENT", text: "ok?" },
            ...{ answeredBy: "ana", verdict: "approved" as const, answeredAt: at, note: p },
          },
        },
      })),
  ],
  [
    "gate reminder: the artifact's name",
    (p) =>
      reminderComment({ job: 7, seq: 1, id: "q1", artifact: p, reviewers: ["ana"], hours: 25 }),
  ],
];

/** What the Forge boundary makes of a text (outbound-forge.ts): redacted, then filtered. */
const posted = (text: string) => outboundText(redact(text));

const TABLE = RENDERERS.flatMap(([where, render]) =>
  PAYLOADS.map(([what, text, kind]) => [`${what} in ${where}`, render(text), kind] as const),
);

function acted(notices: ReturnType<typeof githubNotices>, kind: Kind): boolean {
  return kind === "mention"
    ? notices.mentions.some((m) => m === "erin" || m.startsWith("acme"))
    : notices.closes.length > 0;
}

describe(cases("mentions and closing keywords through every renderer", TABLE.length), () => {
  it.each(TABLE)("%s: posted, nobody is pinged and nothing closes", (_name, rendered, kind) => {
    const notices = githubNotices(posted(rendered));
    expect(
      notices.mentions.filter((m) => !["ana", "bob", "mallory"].includes(m)),
      kind,
    ).toEqual([]);
    expect(notices.closes).toEqual([]);
  });

  it("positive control: without the filter, every payload pings or closes through some renderer", () => {
    const through = TABLE.filter(([, rendered, kind]) => acted(githubNotices(rendered), kind));
    expect(through.length).toBeGreaterThan(TABLE.length / 3);
    for (const [name, , kind] of PAYLOADS) {
      expect(
        through.some(([label]) => label.startsWith(`${name} in `)),
        `${name} (${kind})`,
      ).toBe(true);
    }
  });
});

describe(cases("the filtered text reads as written", PAYLOADS.length), () => {
  it.each(PAYLOADS)("%s", (_name, text) => {
    expect(visibleText(outboundText(text))).toBe(visibleText(text));
  });

  it("a mention inside a URL becomes %40, which the link resolves the same", () => {
    expect(outboundText("https://medium.com/@erin/post")).toBe("https://medium.com/%40erin/post");
  });
});

describe(cases("the bot's own marks", 10), () => {
  it("a gate's reminder pings its reviewers, and only them", () => {
    const body = reminderComment({
      ...{ job: 7, seq: 1, id: "q1", artifact: "ask @erin and @acme/security-team" },
      ...{ reviewers: ["ana", "bob"], hours: 25, prUrl: "https://x/pull/1" },
    });
    expect(githubNotices(posted(body)).mentions).toEqual(["ana", "bob"]);
  });

  it("a gate pings its reviewers, and only them", () => {
    const body = gateComment({
      ...{ job: 7, seq: 1, id: "q1", artifact: "PLAN.md", sha: "a".repeat(40) },
      ...{ state: "PLAN", reviewers: ["ana", "bob"], prUrl: "https://x/pull/1" },
      content: "ask @erin and @acme/security-team",
    });
    expect(githubNotices(posted(body)).mentions).toEqual(["ana", "bob"]);
  });

  it("the job's pull request closes the job's issue, and nothing else", () => {
    const body = `The work of cfa job #7. ${ownClosing(7)}. Also fixes #2.`;
    expect(githubNotices(posted(body)).closes).toEqual(["Closes #7"]);
  });

  it("a question pings the person asked; a refusal the one refused", () => {
    const q = questionComment({
      job: 7,
      seq: 1,
      id: "q1",
      from: "l",
      text: "@erin?",
      asked: "ana",
    });
    expect(githubNotices(posted(q)).mentions).toEqual(["ana"]);
    const r = refusalComment({ job: 7, seq: 2, login: "mallory", reason: "cc @erin" });
    expect(githubNotices(posted(r)).mentions).toEqual(["mallory"]);
  });

  it("a mark with a made-up MAC is not the bot's", () => {
    const forged = `\u2063cfa:${"A".repeat(22)}:5\u2063@erin`;
    expect(githubNotices(posted(forged)).mentions).toEqual([]);
  });

  it("a real mark copied onto another name is not the bot's", () => {
    const mark = ownMention("ana");
    const forged = mark.replace("@ana", "@eve");
    expect(githubNotices(posted(forged)).mentions).toEqual([]);
  });

  it("a real mark with its length stretched over more text is not the bot's", () => {
    const mark = ownMention("ana");
    const forged = `${mark.replace(":4\u2063", ":9\u2063")} @erin`;
    expect(githubNotices(posted(forged)).mentions).toEqual([]);
  });

  it("a mark cut in half (a trimmed comment) leaves nothing and pings nobody", () => {
    const mark = ownMention("ana");
    const cut = `${mark.slice(0, 12)}`;
    expect(posted(`${cut} then @erin`)).not.toContain("\u2063");
    expect(githubNotices(posted(`x ${mark.slice(0, 12)}`)).mentions).toEqual([]);
  });

  it("the outbox stores no mark, and marks again what the template marked", () => {
    const body = `Hi ${ownMention("ana")}, from @erin.`;
    const stored = unmark(body);
    expect(stored.text).toBe("Hi @ana, from @erin.");
    expect(stored.text).not.toContain("\u2063");
    expect(githubNotices(posted(remark(stored.text, stored.own))).mentions).toEqual(["ana"]);
  });

  it("an outbox entry whose text moved under its mark is not marked again", () => {
    expect(remark("Hi @eve", [{ at: 3, target: "@ana" }])).toBe("Hi @eve");
  });
});

describe(cases("posted channels, end to end through the real forges", 3), () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  const payload = PAYLOADS.map(([, text]) => text).join("\n\n");

  it("the local forge as every entry point wraps it: comments, pull request, check runs", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cfa-outbound-"));
    dirs.push(dir);
    execFileSync("git", ["init", "-q", "-b", "main", dir]);
    execFileSync("git", ["-C", dir, "commit", "-q", "--allow-empty", "-m", "x"], {
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "a",
        GIT_AUTHOR_EMAIL: "a@b",
        GIT_COMMITTER_NAME: "a",
        GIT_COMMITTER_EMAIL: "a@b",
      },
    });
    execFileSync("git", ["-C", dir, "branch", "cfa/7"]);
    const local = new LocalForge({
      repoDir: dir,
      dataDir: join(dir, ".git", "cfa-local"),
      clock: { now: () => new Date(at) },
      person: "ana",
    });
    const forge = outboundForge(local, new Redactor());
    await local.openIssue({ title: payload, body: "b", labels: ["cfa"] });
    const comment = await forge.createComment(1, `${ownMention("ana")}: ${payload}`);
    await forge.updateComment(comment.id, `${ownMention("ana")} again: ${payload}`);
    await forge.createPullRequest({
      head: "cfa/7",
      base: "main",
      title: `cfa #1: ${payload}`,
      body: `${ownClosing(1)}.\n\n${payload}`,
      draft: true,
    });
    await forge.setCheck({
      name: "cfa/plan",
      sha: execFileSync("git", ["-C", dir, "rev-parse", "HEAD"], { encoding: "utf8" }).trim(),
      status: "in_progress",
      summary: payload,
    });
    const stored = JSON.parse(
      await readFile(join(dir, ".git", "cfa-local", "forge.json"), "utf8"),
    ) as {
      comments: { body: string }[];
      pulls: { title: string; body: string }[];
      checks: { summary: string }[];
    };
    const texts = [
      ...stored.comments.map((c) => c.body),
      ...stored.pulls.flatMap((p) => [p.title, p.body]),
      ...stored.checks.map((c) => c.summary),
    ];
    expect(texts).toHaveLength(4);
    const notices = texts.map(githubNotices);
    expect(notices.map((n) => n.mentions)).toEqual([["ana"], [], [], []]);
    expect(notices.flatMap((n) => n.closes)).toEqual(["Closes #1"]);
    expect(texts.join("")).not.toContain("\u2063");
  });

  it("the app's replies (its own comments, over the installation's client)", async () => {
    const sent: string[] = [];
    const cues = createGitHubCues(
      {
        request: (_route: string, params?: Record<string, unknown>) => {
          sent.push(String(params?.body));
          return Promise.resolve({ data: {} });
        },
        paginate: () => Promise.resolve([]),
      },
      { owner: "o", repo: "r" },
    );
    await cues.createComment(7, `${ownMention("mallory")}: ${payload}`);
    expect(githubNotices(sent[0] as string).mentions).toEqual(["mallory"]);
    expect(githubNotices(sent[0] as string).closes).toEqual([]);
  });

  it("positive control: the local forge unwrapped posts every payload live", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cfa-outbound-raw-"));
    dirs.push(dir);
    execFileSync("git", ["init", "-q", "-b", "main", dir]);
    const local = new LocalForge({
      repoDir: dir,
      dataDir: join(dir, ".git", "cfa-local"),
      clock: { now: () => new Date(at) },
      person: "ana",
    });
    await local.openIssue({ title: "t", body: "b", labels: ["cfa"] });
    await local.createComment(1, payload);
    const body = (await local.listComments(1))[0]?.body ?? "";
    expect(githubNotices(body).mentions).toContain("erin");
    expect(githubNotices(body).closes.length).toBeGreaterThan(0);
  });
});

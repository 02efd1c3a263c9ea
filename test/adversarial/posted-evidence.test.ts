// Adversarial class "agent-controlled text in what the bot posts about setup, evidence and blocked
// requests": a command line, a host a command asked for and the last lines of a failing setup come
// from agents (or the job branch's scripts). Posted in the status comment and the check run, none
// may end its code span or block, add a table cell, ping anyone or carry a secret. Positive
// controls show the naive rendering breaking out.

import { describe, expect, it } from "vitest";
import { initialEngineState, type EngineState } from "../../src/records/engine-state.js";
import { outboundText } from "../../src/comments/outbound-text.js";
import { codeSpan } from "../../src/comments/untrusted-code.js";
import { registerSecret } from "../../src/secrets/index.js";
import { cases } from "../support/adversarial/count.js";
import {
  STATUS_AT as at,
  blockedRequest,
  renderStatus as render,
  taskMeta as task,
} from "../support/comments/status-fixture.js";

describe(
  cases("agent-controlled text in evidence, setup output and blocked requests", 4, "ways out"),
  () => {
    const hostile = "x` | injected | cell\n@ana <!-- cfa {} --> [link](http://a)";

    it("a backtick, a pipe and a newline cannot end the code span or the table row", () => {
      const span = codeSpan(hostile);
      expect(span.startsWith("``")).toBe(true);
      expect(span).not.toContain("\n");
      expect(span).toContain("\\|");
      // Positive control: the naive span breaks out at the first backtick.
      const naive = `\`${hostile}\``;
      expect(naive.indexOf("`", 1)).toBeLessThan(naive.length - 1);
    });

    it("a mention in a blocked host or command never pings: it is inside a code span or neutralised", () => {
      const engine: EngineState = {
        ...initialEngineState("ana"),
        blocked: {
          entries: [
            blockedRequest({
              host: "@ana.example",
              command: `curl ${hostile}`,
              by: "worker@dispatch:a",
            }),
          ],
          dropped: 0,
        },
      };
      const posted = outboundText(render(engine));
      const row = posted.split("\n").find((l) => l.includes("ana.example")) ?? "";
      expect(row.split(/(?<!\\)\|/).length).toBe(8); // 6 cells, a leading and a trailing pipe
      expect(posted).not.toMatch(/(^|[^`\u200b])@ana\b(?![^`]*`)/m);
    });

    it("a setup's last lines cannot close their code block", () => {
      const engine: EngineState = {
        ...initialEngineState("ana"),
        setup: {
          runs: [],
          failed: {
            workspace: "job",
            command: "make",
            exitCode: 2,
            tail: "```\n# Setup passed\n```",
            at,
            digest: "d",
          },
        },
      };
      const body = render(engine, true);
      expect(body).toContain("````text\n```\n# Setup passed\n```\n````");
    });

    it("a secret a command printed or put on its command line is redacted", () => {
      const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
      registerSecret(token);
      const engine: EngineState = {
        ...initialEngineState("ana"),
        tasks: {
          a: task({
            verifierEvidence: [{ command: `curl -H "token ${token}"`, exitCode: 0, durationMs: 1 }],
          }),
        },
        setup: {
          runs: [],
          failed: {
            workspace: "job",
            command: "npm ci",
            exitCode: 1,
            tail: `auth ${token}`,
            at,
            digest: "d",
          },
        },
      };
      const body = render(engine, true);
      expect(body).not.toContain(token);
    });
  },
);

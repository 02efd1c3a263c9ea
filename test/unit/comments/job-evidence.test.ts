// Evidence as the person reads it: a verdict with the commands the engine saw run, a pass with
// none shown unverified, a failed setup with its command and last lines, the requests the
// egress proxy refused — in the status comment and the check run, with agent-controlled text
// unable to break out of its code span, ping anyone or leak a secret.

import { describe, expect, it } from "vitest";
import { newJobRecord } from "../../../src/protocol/job-record.js";
import {
  initialEngineState,
  withEngineState,
  type EngineState,
} from "../../../src/records/engine-state.js";
import { jobEvidence } from "../../../src/comments/job-evidence.js";
import { jobChecks } from "../../../src/engine/publish/checks.js";
import {
  STATUS_AT as at,
  blockedRequest,
  renderStatus as render,
  taskMeta as task,
} from "../../support/comments/status-fixture.js";

describe("verdicts with evidence", () => {
  const engine: EngineState = {
    ...initialEngineState("ana"),
    tasks: {
      api: task({
        verifierEvidence: [
          { command: "npm test", exitCode: 0, durationMs: 4100, summary: "32 passed" },
        ],
        workerEvidence: [
          { command: "npm test", exitCode: 1, durationMs: 900, summary: "1 failed, 31 passed" },
        ],
      }),
      docs: task({ verifierEvidence: [] }),
      build: task({
        verifierEvidence: [{ command: "make check", exitCode: 0, durationMs: 800 }],
        workerEvidence: [{ command: "./run-tests.sh", exitCode: 0, durationMs: 500 }],
      }),
      old: task({}),
    },
  };
  const body = render(engine);

  it("names the command, its exit code and the runner's count beside the verdict", () => {
    expect(body).toContain(
      "| `api` | merged | `npm test` exit 1, 1 failed, 31 passed | pass — `npm test` exit 0, 32 passed |",
    );
  });

  it("says 'no count' where the runner's output was not recognised, never a pass of unknown size", () => {
    expect(body).toContain(
      "| `build` | merged | `./run-tests.sh` exit 0, no count | pass — `make check` exit 0, no count |",
    );
  });

  it("shows a pass whose verifier ran no command as unverified", () => {
    expect(body).toContain(
      "| `docs` | merged | — | pass — **unverified**: the verifier ran no command |",
    );
  });

  it("the check run carries the same evidence", () => {
    const job = withEngineState(newJobRecord({ job: 7, title: "t", at }), engine);
    const [check] = jobChecks(job, "next", "abc", jobEvidence(engine));
    expect(check?.summary).toContain("pass — `npm test` exit 0, 32 passed");
    expect(check?.summary).toContain("**unverified**");
  });
});

describe("setup and blocked requests", () => {
  const engine: EngineState = {
    ...initialEngineState("ana"),
    setup: {
      runs: [
        {
          workspace: "job",
          at,
          ok: false,
          commands: [{ command: "npm ci", exitCode: 1, durationMs: 2500 }],
        },
      ],
      failed: {
        workspace: "job",
        command: "npm ci",
        exitCode: 1,
        tail: "npm ERR! code E404\nnpm ERR! 404 Not Found - GET http://registry/left-pad",
        at,
        digest: "d",
      },
    },
    blocked: {
      entries: [blockedRequest({ count: 3 })],
      dropped: 0,
    },
  };

  it("a failed setup is shown with its command, exit code and last lines while the job waits", () => {
    const body = render(engine, true);
    expect(body).toContain("Setup failed in `job`: `npm ci` exited 1");
    expect(body).toContain("/retry");
    expect(body).toContain("```text\nnpm ERR! code E404\nnpm ERR! 404 Not Found");
    expect(body).toContain("| `job` | `npm ci` | exit 1 | 2.5 s |");
    // Once it no longer blocks (retried, or the config changed), the warning goes.
    expect(render(engine, false)).not.toContain("Setup failed in");
  });

  it("each blocked request names host, port, protocol, reason, the command and who ran it, with a count", () => {
    const body = render(engine);
    expect(body).toContain("Blocked requests (3)");
    expect(body).toContain(
      "| `evil.example:443` | https | `not-allowed` | `curl https://evil.example` | `worker@dispatch:api` | 3 |",
    );
    const job = withEngineState(newJobRecord({ job: 7, title: "t", at }), engine);
    expect(jobChecks(job, "n", "abc", jobEvidence(engine))[0]?.summary).toContain(
      "`evil.example:443`",
    );
  });
});

// `cfa watch --follow` in one "terminal" while `cfa answer` runs the job in another: the
// follower prints each new line once, as the job branch moves, until it is stopped.

import { describe, expect, it } from "vitest";
import { createScriptedModel } from "../../../src/adapters/scripted/index.js";
import { main } from "../../../src/cli/main.js";
import { call, recording, tools } from "../../support/engine/script.js";
import { gate, writeArtifact } from "../../support/engine/recordings.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { useGreetRepo } from "../../support/cli/use-greet-repo.js";

const { local, workRoot } = useGreetRepo();

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("cfa watch --follow", () => {
  it("prints new lines as another command moves the job, once each, until stopped", async () => {
    const model = createScriptedModel(
      recording({
        "intent-lead@state:intent:1": [
          tools(call("ask_question", { kind: "question", text: "English or French?" })),
          writeArtifact("INTENT.md", "# Intent\n"),
          gate("INTENT.md", "ready"),
        ],
      }),
    );
    const seam = { cwd: local().repo, model, workRoot: workRoot() };
    expect(await main(["run", "Greet"], captureIo(seam))).toBe(0);

    const stop = new AbortController();
    const watcher = captureIo({ cwd: local().repo, signal: stop.signal });
    const following = main(["watch", "1", "--follow", "--interval", "0.05"], watcher);
    await until(() => watcher.out().includes("q1 waits for @ana's answer"), "the first lines");
    expect(watcher.out()).not.toContain("HUMAN");

    expect(await main(["answer", "1", "English"], captureIo(seam))).toBe(0);
    await until(() => watcher.out().includes("INTENT.md waits for @ana's review"), "the gate line");
    stop.abort();
    expect(await following).toBe(0);

    const out = watcher.out();
    expect(out).toContain("HUMAN         ANSWER    q1 by @ana: English");
    for (const once of ['JOB           START     "Greet"', "ASK       q1: English or French?"]) {
      expect(out.split(once).length - 1, once).toBe(1);
    }
  });
});

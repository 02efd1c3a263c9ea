// Ctrl-C (the io's signal) stops a wake at its next safe point: the command says so and
// exits 130, and the job keeps every complete turn, ready for the next command.

import { describe, expect, it } from "vitest";
import { createScriptedModel } from "../../../src/adapters/scripted/index.js";
import { main } from "../../../src/cli/main.js";
import type { Model } from "../../../src/ports/model.js";
import { call, recording, tools } from "../../support/engine/script.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { useGreetRepo } from "../../support/cli/use-greet-repo.js";

const { local, workRoot } = useGreetRepo();

describe("stopping a command", () => {
  it("stops between turns, exits 130 and leaves a job the next command continues", async () => {
    const scripted = createScriptedModel(
      recording({
        "intent-lead@state:intent:1": [
          tools(call("write_file", { path: ".cfa/jobs/1/INTENT.md", content: "# Intent\n" })),
          tools(call("ask_question", { kind: "question", text: "English?" })),
        ],
      }),
    );
    const stop = new AbortController();
    // The person presses Ctrl-C while the model answers the lead's first request.
    const model: Model = {
      complete: async (request, options) => {
        const response = await scripted.complete(request, options);
        stop.abort();
        return response;
      },
    };
    const io = captureIo({ cwd: local().repo, model, workRoot: workRoot(), signal: stop.signal });
    expect(await main(["run", "Greet"], io)).toBe(130);
    expect(io.err()).toContain(
      "cfa: stopped. Job #1 keeps every complete turn; cfa watch 1 shows where it is.",
    );

    // The records say where it stopped and how to go on.
    const watch = captureIo({ cwd: local().repo });
    expect(await main(["watch", "1"], watch)).toBe(0);
    expect(watch.out()).toContain(
      "INTENT — work is waiting for intent-lead@state:intent:1: continue with `cfa resume 1`.",
    );

    const resume = captureIo({ cwd: local().repo, model: scripted, workRoot: workRoot() });
    expect(await main(["resume", "1"], resume)).toBe(0);
    expect(resume.out()).toContain("▶ @ana resumes job #1");
    expect(resume.out()).toContain("INTENT — waiting on your answer to q1:");
    expect(scripted.remaining()).toEqual({ "intent-lead@state:intent:1": 0 });
  });
});

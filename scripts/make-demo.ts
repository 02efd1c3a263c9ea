// `npx tsx scripts/make-demo.ts`: makes recordings/demo.json the way a user makes a recording —
// `cfa run --record` and then each of the person's verbs with `--record`, the real CLI, engine,
// Anthropic adapter and recorder — against a local Messages API that answers from the authored
// story (scripts/demo/demo-story.ts). So the file is what the recorder writes: the agents'
// requests come from the engine as it is, and the usage each answer bills is what the
// documented prompt cache (bench/cache-model.ts) would bill for that very request.
//
// Needs no key and no network. Commands the agents run go through the sandbox like any
// recorded run's (bubblewrap); their output is never part of the recording. The script fails,
// writing nothing, if any request differs from what the story expects or the job does not end
// DONE with every step played.
//
//   npx tsx scripts/make-demo.ts [--out FILE]   (default: recordings/demo.json)

import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { main } from "../src/cli/main.js";
import type { CliIo } from "../src/cli/cli-io.js";
import { parseReplayFile, serializeReplayFile } from "../src/cli/replay-file.js";
import { PromptCache } from "../bench/cache-model.js";
import { recordedJobApi } from "../test/support/fake-messages-api/recorded-job.js";
import { startFakeMessagesApi } from "../test/support/fake-messages-api/server.js";
import { makeTempRepo } from "../test/support/git/temp-repo.js";
import { DEMO_STORY } from "./demo/demo-story.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Between two requests, as the cache bench lays them out (bench/cache.bench.ts). */
const CALL_MS = 20_000;

const DESCRIPTION =
  "cfa demo: a complete job on a tiny JavaScript library. INTENT drafted and approved; PLAN drafted, one change requested, revised and approved; EXECUTE dispatches three tasks in parallel, each worker and verifier running the project's tests through the bash tool (`npm test`) and editing with the text editor tool, each verified and merged; WORK_SUMMARY.md approved: DONE. Recorded by scripts/make-demo.ts with `cfa run --record` and the person's verbs, the model answering from scripts/demo/demo-story.ts.";

async function makeDemo(out: string): Promise<void> {
  const story = DEMO_STORY;
  const recording = {
    instances: Object.fromEntries(
      Object.entries(story.instances).map(([instance, steps]) => [
        instance,
        steps.map((step) => ({
          ...(step.expect === undefined ? {} : { expect: step.expect }),
          response: {
            content: step.content,
            stopReason: step.stopReason,
            usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
          },
        })),
      ]),
    ),
  };
  const cache = new PromptCache();
  let at = 0;
  const api = recordedJobApi(recording as never, {
    asTheApi: false,
    usage: (body, content) => {
      at += CALL_MS;
      const billed = cache.send(body, at);
      return {
        inputTokens: billed.uncached,
        outputTokens: Math.ceil(Buffer.byteLength(JSON.stringify(content)) / 4),
        cacheReadTokens: billed.read,
        cacheWriteTokens: billed.write5m + billed.write1h,
        ...(billed.write1h > 0 ? { cacheWrite1hTokens: billed.write1h } : {}),
      };
    },
  });
  const server = await startFakeMessagesApi((request) => api.respond(request));
  const temp = makeTempRepo({
    prefix: "cfa-make-demo-",
    identity: { name: story.person, email: `${story.person}@users.noreply.github.com` },
    files: story.files,
  });
  try {
    const file = join(temp.root, "demo.json");
    let said = "";
    const io: CliIo = {
      stdout: { write: (text: string) => (said += text) },
      stderr: { write: (text: string) => (said += text) },
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: temp.root,
        XDG_CACHE_HOME: join(temp.root, "cache"),
        ANTHROPIC_API_KEY: "sk-ant-api03-make-demo-local-only",
        ANTHROPIC_BASE_URL: server.url,
      },
      cwd: temp.repo,
      workRoot: join(temp.root, "work"),
      // The story's answers assume the order turns started in, as every replay applies them.
      applyOrder: "started",
    };
    const verbs: string[][] = [
      ["run", story.request.body, "--title", story.request.title, "--record", file],
      ...story.people.map((person) =>
        person.action === "approve"
          ? ["approve", "1", "--record", file]
          : ["reject", "1", "--comment", person.text ?? "", "--record", file],
      ),
    ];
    for (const argv of verbs) {
      const code = await main(argv, io);
      if (code !== 0 || api.conformance.problems.length > 0) {
        throw new Error(
          `make-demo: \`cfa ${argv[0]}\` ended ${code}: ${api.conformance.problems.join("; ")}\n${said}`,
        );
      }
    }
    const unplayed = api.unplayed();
    const state = JSON.parse(temp.git("show", "cfa/1:.cfa/jobs/1/state.json")) as {
      state: string;
    };
    if (state.state !== "DONE" || Object.keys(unplayed).length > 0) {
      throw new Error(
        `make-demo: the job ended ${state.state} with steps unplayed: ${JSON.stringify(unplayed)}\n${said}`,
      );
    }
    const made = parseReplayFile(await readFile(file, "utf8"), file);
    await writeFile(out, serializeReplayFile({ ...made, description: DESCRIPTION }));
    process.stdout.write(`make-demo: wrote ${out} (${api.charged.length} model calls)\n`);
  } finally {
    await server.close();
    temp.cleanup();
  }
}

const { values } = parseArgs({ options: { out: { type: "string" } } });
await makeDemo(values.out ?? join(ROOT, "recordings", "demo.json"));

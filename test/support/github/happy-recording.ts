// The scripted job the GitHub end-to-end tests run: intent and plan each approved at their
// gate, two tasks dispatched, verified, closed and merged, the work approved.

import { call, recording, say, tools } from "../engine/script.js";

const ART = ".cfa/jobs/1";

export function happyRecording() {
  return recording({
    "intent-lead@state:intent:1": [
      tools(call("write_file", { path: `${ART}/INTENT.md`, content: "# Intent\n\nGreet.\n" })),
      tools(
        call("ask_question", {
          kind: "gate",
          text: "Is this your intent?",
          artifact: `${ART}/INTENT.md`,
        }),
      ),
      tools(call("finish", { outcome: "APPROVED_INTENT", reason: "approved by the person" })),
    ],
    "project-lead@state:plan:1": [
      tools(call("write_file", { path: `${ART}/PLAN.md`, content: "# Plan\n\nhello, world.\n" })),
      tools(call("ask_question", { kind: "gate", text: "Plan ready", artifact: `${ART}/PLAN.md` })),
      tools(call("finish", { outcome: "APPROVED_PLAN", reason: "approved" })),
    ],
    "project-lead@state:execute:1": [
      tools(
        call("dispatch", { id: "hello", brief: "Create hello.txt containing hello", files: [] }),
        call("dispatch", { id: "world", brief: "Create world.txt containing world", files: [] }),
      ),
      say("Dispatched two tasks."),
      tools(call("close", { task: "hello" })),
      say("Closed hello."),
      tools(call("close", { task: "world" })),
      tools(
        call("write_file", { path: `${ART}/WORK_SUMMARY.md`, content: "# Summary\n\nDone.\n" }),
      ),
      tools(
        call("ask_question", {
          kind: "gate",
          text: "Work done",
          artifact: `${ART}/WORK_SUMMARY.md`,
        }),
      ),
      tools(call("finish", { outcome: "APPROVED_WORK", reason: "approved" })),
    ],
    "worker@dispatch:hello": [
      tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
      tools(call("reply", { text: "hello.txt written" })),
      say("done"),
    ],
    "worker@dispatch:world": [
      tools(call("write_file", { path: "world.txt", content: "world\n" })),
      tools(call("reply", { text: "world.txt written" })),
      say("done"),
    ],
    "verifier@verify:hello-1": [
      tools(call("verdict", { verdict: "pass", issues: [], notes: "ok" })),
    ],
    "verifier@verify:world-1": [
      tools(call("verdict", { verdict: "pass", issues: [], notes: "ok" })),
    ],
  });
}

// The demo's story as an authored script (scripts/make-demo.ts plays it to the real recorder):
// what the person asks and does, the repository it starts from, and what each agent answers,
// in the tools of the `bash-editor` set — the editor views, creates and edits files, bash runs
// `npm test`. Only the answers are written here; the requests, the usage and everything else
// in recordings/demo.json is what the engine and the recorder produce from them.
//
// Same story as before: three string helpers for a tiny library, one requested change to the
// plan, three tasks in parallel, each verified and merged, DONE.

import type { DemoStory } from "./demo-story-schema.js";

export const DEMO_STORY: DemoStory = {
  request: {
    title: "Add three string helpers: capitalize, camelCase and truncate",
    body: 'Add three string helpers to textkit: `capitalize(text)` (first letter upper-case), `camelCase(text)` ("hello world" → "helloWorld") and `truncate(text, n)` (cut to n characters with an ellipsis). Same style as slugify: one module each, exported from src/index.js, with tests.',
  },
  person: "ana",
  files: {
    "package.json":
      '{\n  "name": "textkit",\n  "version": "0.3.0",\n  "description": "Small, dependency-free string helpers.",\n  "type": "module",\n  "exports": "./src/index.js",\n  "scripts": {\n    "test": "node --test"\n  },\n  "license": "MIT"\n}\n',
    "README.md":
      '# textkit\n\nSmall, dependency-free string helpers for Node.js 18+.\n\n```js\nimport { slugify } from "textkit";\n\nslugify("Hello, World!"); // "hello-world"\n```\n\n## Helpers\n\n- `slugify(text)`: lower-case ASCII words joined by dashes.\n\n## Development\n\n`npm test` runs the tests (`node:test`, no dependencies).\n',
    "src/index.js": 'export { slugify } from "./slugify.js";\n',
    "src/slugify.js":
      '/**\n * "Hello, World!" → "hello-world": lower-case ASCII words joined by dashes.\n * @param {string} text\n * @returns {string}\n */\nexport function slugify(text) {\n  return String(text)\n    .normalize("NFKD")\n    .replace(/[\\u0300-\\u036f]/g, "")\n    .toLowerCase()\n    .replace(/[^a-z0-9]+/g, "-")\n    .replace(/^-+|-+$/g, "");\n}\n',
    "test/slugify.test.js":
      'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { slugify } from "../src/slugify.js";\n\ntest("slugify joins lower-case words with dashes", () => {\n  assert.equal(slugify("Hello, World!"), "hello-world");\n});\n\ntest("slugify drops accents", () => {\n  assert.equal(slugify("Crème brûlée"), "creme-brulee");\n});\n',
    "AGENTS.md":
      '# AGENTS.md — notes for coding agents working on textkit\n\ntextkit is a small, dependency-free library of string helpers for Node.js 18+, published to\nnpm as an ES module. People import it for one or two helpers, so every helper must be small,\npredictable and documented.\n\n## Layout\n\n- `src/<helper>.js`: one helper per module, a named export, no default export.\n- `src/index.js`: re-exports every helper, in alphabetical order. The package\'s `exports`\n  points here, so a helper missing from it is not part of the library.\n- `test/<helper>.test.js`: the helper\'s tests, with `node:test` and `node:assert/strict`.\n- `README.md`: the usage example at the top and the "Helpers" list, one line per helper.\n\n## Commands\n\n- `npm test` runs every test (`node --test`). There is nothing to install and no build step.\n- Run the tests before you say a change is done, and say how many passed.\n\n## Writing a helper\n\n- Follow `src/slugify.js`: a JSDoc comment whose first line is an example\n  (`"Hello, World!" → "hello-world"`), `@param` and `@returns` tags, then the function.\n- Accept anything: convert the input with `String(text)`; never throw on `null`, numbers or\n  `undefined`.\n- Count characters as JavaScript does (UTF-16 code units, like `String.prototype.slice`) and\n  say so in the JSDoc when it matters; grapheme-aware behaviour is out of scope.\n- No regular expressions with nested quantifiers: helpers run on untrusted input.\n\n## Tests\n\n- One `test()` per behaviour, named as a sentence about the helper ("truncate keeps a short\n  string as it is").\n- Cover the empty string and the edge the helper\'s own parameters create (n = 0, n = 1).\n\n## Don\'ts\n\n- No dependencies, not even dev dependencies: textkit\'s `package.json` has none.\n- Do not change `package.json`\'s version or exports; releases are made by the maintainers.\n- Do not reformat files you do not otherwise change.\n',
  },
  people: [
    {
      action: "approve",
      job: 1,
    },
    {
      action: "reject",
      job: 1,
      text: "One change: truncate's result must never be longer than n characters, the ellipsis included. Make that the truncate task's success condition, and cover n = 0 and n = 1 in its tests.",
    },
    {
      action: "approve",
      job: 1,
    },
    {
      action: "approve",
      job: 1,
    },
  ],
  instances: {
    "intent-lead@state:intent:1": [
      {
        expect: {
          lastUserIncludes: "You lead the INTENT phase of job #1.",
        },
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_001",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: ".",
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_002",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "README.md",
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_003",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "src/slugify.js",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_301",
            name: "bash",
            input: {
              command: "cat package.json && git log --oneline -3",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_004",
            name: "str_replace_based_edit_tool",
            input: {
              command: "create",
              path: ".cfa/jobs/1/INTENT.md",
              file_text:
                '# Intent: three string helpers for textkit\n\n## Objective\nAdd `capitalize`, `camelCase` and `truncate` to textkit, so that its users stop writing\nthem by hand. They should feel like `slugify`: small, predictable, dependency-free.\n\n## Scope\n- In: the three helpers, each in its own module under `src/`, exported from\n  `src/index.js`, each with tests under `test/`; the README\'s list of helpers.\n- Out: new dependencies, a build step, TypeScript types, changes to `slugify`.\n\n## Success criteria\n- `capitalize("hello world")` is `"Hello world"`: the first character upper-cased, the\n  rest untouched; `capitalize("")` is `""`.\n- `camelCase("hello world")` is `"helloWorld"`; dashes, underscores and repeated\n  separators break words too (`"Hello-big_world"` → `"helloBigWorld"`).\n- `truncate("hello world", 8)` is `"hello w…"`; a string that fits comes back unchanged.\n- `npm test` passes, with tests for each helper.\n- All three can be imported from `textkit` (`src/index.js`).\n\n## Constraints\n- ES modules, Node.js 18+, no dependencies (tests use `node:test`).\n- The style of `src/slugify.js`: one exported function per module, with a JSDoc comment.\n\n## Open questions\nNone.\n',
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_005",
            name: "ask_question",
            input: {
              kind: "gate",
              text: "INTENT.md is ready: three helpers shaped like slugify, each with tests, no new dependencies. Is this what you want?",
              artifact: ".cfa/jobs/1/INTENT.md",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        expect: {
          toolResultFor: "ask_question",
          lastUserIncludes: "approved by @ana",
        },
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_006",
            name: "finish",
            input: {
              outcome: "APPROVED_INTENT",
              reason:
                "@ana approved INTENT.md: three helpers shaped like slugify, each with tests, no new dependencies.",
            },
          },
        ],
        stopReason: "tool_use",
      },
    ],
    "project-lead@state:plan:1": [
      {
        expect: {
          lastUserIncludes: "You lead the PLAN phase of job #1.",
        },
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_007",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: ".cfa/jobs/1/INTENT.md",
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_008",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "src/slugify.js",
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_302",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "test/slugify.test.js",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_303",
            name: "bash",
            input: {
              command: "npm test",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_009",
            name: "str_replace_based_edit_tool",
            input: {
              command: "create",
              path: ".cfa/jobs/1/PLAN.md",
              file_text:
                '# Plan: three string helpers\n\n## Approach\nThe three helpers do not depend on each other, so each is one task with its own module and\ntest file, and the three run in parallel. The lead wires them into `src/index.js` and the\nREADME once all three are merged, so no two tasks touch the same file.\n\n## Phases\n1. Build: the three tasks below, in parallel. Done when each is verified and merged.\n2. Wire up: the lead exports the helpers from `src/index.js` and lists them in the README.\n   Done when all four helpers import from `textkit`.\n\n## Tasks\n| id | brief | owns | parallel |\n|---|---|---|---|\n| `capitalize` | `capitalize(text)`: upper-case the first character, leave the rest; `""` stays `""`. Tests for a sentence, mixed case and the empty string. | `src/capitalize.js`, `test/capitalize.test.js` | yes |\n| `camel-case` | `camelCase(text)`: split words on spaces, dashes and underscores; lower-case the first word, capitalise the others, join them. Tests for each separator and for repeats. | `src/camel-case.js`, `test/camel-case.test.js` | yes |\n| `truncate` | `truncate(text, n)`: a string longer than n is cut and ends with `…`; a shorter one comes back unchanged. Tests for a long and a short string. | `src/truncate.js`, `test/truncate.test.js` | yes |\n\n## Risks\n- "Characters" is ambiguous for emoji and combining marks: the helpers count UTF-16 code\n  units, like `String.prototype.slice`, and say so in their JSDoc. Grapheme-aware\n  behaviour would be a change of intent (REALIGN).\n',
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_010",
            name: "ask_question",
            input: {
              kind: "gate",
              text: "PLAN.md is ready: three parallel tasks, one per helper, each owning its module and test file; then I wire them into src/index.js and the README. Approve?",
              artifact: ".cfa/jobs/1/PLAN.md",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        expect: {
          toolResultFor: "ask_question",
          lastUserIncludes: "changes requested by @ana",
        },
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_011",
            name: "str_replace_based_edit_tool",
            input: {
              command: "str_replace",
              path: ".cfa/jobs/1/PLAN.md",
              old_str:
                "| `truncate` | `truncate(text, n)`: a string longer than n is cut and ends with `…`; a shorter one comes back unchanged. Tests for a long and a short string. | `src/truncate.js`, `test/truncate.test.js` | yes |",
              new_str:
                '| `truncate` | `truncate(text, n)`: a string of at most n characters comes back unchanged; a longer one is cut so that the result, `…` included, is exactly n characters. n = 0 gives `""`, n = 1 gives `"…"`. Tests for a long string, a short one, exactly n, n = 0 and n = 1. | `src/truncate.js`, `test/truncate.test.js` | yes |',
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_011b",
            name: "str_replace_based_edit_tool",
            input: {
              command: "insert",
              path: ".cfa/jobs/1/PLAN.md",
              insert_line: 23,
              insert_text:
                "\n## Changes after review\n- `truncate`: the result is never longer than n characters, the ellipsis included; its\n  tests cover n = 0 and n = 1 (review of PLAN.md by @ana).\n",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_402",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: ".cfa/jobs/1/PLAN.md",
              view_range: [13, -1],
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_012",
            name: "ask_question",
            input: {
              kind: "gate",
              text: "PLAN.md is revised as you asked: truncate never returns more than n characters, the ellipsis included, and its tests cover n = 0 and n = 1. Approve?",
              artifact: ".cfa/jobs/1/PLAN.md",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        expect: {
          toolResultFor: "ask_question",
          lastUserIncludes: "approved by @ana",
        },
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_013",
            name: "finish",
            input: {
              outcome: "APPROVED_PLAN",
              reason:
                "@ana approved PLAN.md after one change: truncate never returns more than n characters, the ellipsis included.",
            },
          },
        ],
        stopReason: "tool_use",
      },
    ],
    "project-lead@state:execute:1": [
      {
        expect: {
          lastUserIncludes: "You lead the EXECUTE phase of job #1.",
        },
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_014",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: ".cfa/jobs/1/PLAN.md",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_015",
            name: "dispatch",
            input: {
              id: "camel-case",
              brief:
                'Write `camelCase(text)` in `src/camel-case.js` and its tests in `test/camel-case.test.js`. Split words on spaces, dashes and underscores (repeats count as one break); lower-case the first word, capitalise the others, join them: "hello world" → "helloWorld", "Hello-big_world" → "helloBigWorld", "" → "". Follow `src/slugify.js`: one exported function with a JSDoc comment, ES modules, no dependencies; tests with node:test. Touch no other file.',
              files: [],
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_016",
            name: "dispatch",
            input: {
              id: "capitalize",
              brief:
                'Write `capitalize(text)` in `src/capitalize.js` and its tests in `test/capitalize.test.js`. Upper-case the first character and leave the rest as it is: "hello world" → "Hello world", "hELLO" → "HELLO", "" → "". Follow `src/slugify.js`: one exported function with a JSDoc comment, ES modules, no dependencies; tests with node:test. Touch no other file.',
              files: [],
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_017",
            name: "dispatch",
            input: {
              id: "truncate",
              brief:
                'Write `truncate(text, n)` in `src/truncate.js` and its tests in `test/truncate.test.js`. A string of at most n characters comes back unchanged; a longer one is cut so that the result, "…" included, is exactly n characters: truncate("hello world", 8) → "hello w…". n = 0 gives "", n = 1 gives "…". Follow `src/slugify.js`: one exported function with a JSDoc comment, ES modules, no dependencies; tests with node:test. Touch no other file.',
              files: [],
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "text",
            text: "Dispatched camel-case, capitalize and truncate; they run in parallel. I will close each when its worker reports.",
          },
        ],
        stopReason: "end_turn",
      },
      {
        expect: {
          lastUserIncludes: "Message from worker@dispatch:camel-case",
        },
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_018",
            name: "close",
            input: {
              task: "camel-case",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "text",
            text: "camel-case passed verification; it merges into cfa/1 when this turn ends.",
          },
        ],
        stopReason: "end_turn",
      },
      {
        expect: {
          lastUserIncludes: "Message from worker@dispatch:capitalize",
        },
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_019",
            name: "close",
            input: {
              task: "capitalize",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "text",
            text: "capitalize passed verification; it merges into cfa/1 when this turn ends.",
          },
        ],
        stopReason: "end_turn",
      },
      {
        expect: {
          lastUserIncludes: "Message from worker@dispatch:truncate",
        },
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_020",
            name: "close",
            input: {
              task: "truncate",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_200",
            name: "bash",
            input: {
              command: "git log --oneline -4 && npm test",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_201",
            name: "str_replace_based_edit_tool",
            input: {
              command: "str_replace",
              path: "src/index.js",
              old_str: 'export { slugify } from "./slugify.js";\n',
              new_str:
                'export { camelCase } from "./camel-case.js";\nexport { capitalize } from "./capitalize.js";\nexport { slugify } from "./slugify.js";\nexport { truncate } from "./truncate.js";\n',
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_202",
            name: "str_replace_based_edit_tool",
            input: {
              command: "str_replace",
              path: "README.md",
              old_str:
                'import { slugify } from "textkit";\n\nslugify("Hello, World!"); // "hello-world"\n',
              new_str:
                'import { camelCase, capitalize, slugify, truncate } from "textkit";\n\nslugify("Hello, World!"); // "hello-world"\ncapitalize("hello world"); // "Hello world"\ncamelCase("Hello-big_world"); // "helloBigWorld"\ntruncate("hello world", 8); // "hello w…"\n',
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_203",
            name: "str_replace_based_edit_tool",
            input: {
              command: "str_replace",
              path: "README.md",
              old_str: "- `slugify(text)`: lower-case ASCII words joined by dashes.\n",
              new_str:
                "- `slugify(text)`: lower-case ASCII words joined by dashes.\n- `capitalize(text)`: the first character upper-cased, the rest untouched.\n- `camelCase(text)`: words split on spaces, dashes and underscores, joined in camelCase.\n- `truncate(text, n)`: at most n characters, the ellipsis included.\n\nThe helpers count UTF-16 code units, like `String.prototype.slice`.\n",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_304",
            name: "bash",
            input: {
              command: "git diff -- src/index.js README.md",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_401",
            name: "bash",
            input: {
              command: "git diff --stat main -- src test README.md",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_023",
            name: "str_replace_based_edit_tool",
            input: {
              command: "create",
              path: ".cfa/jobs/1/WORK_SUMMARY.md",
              file_text:
                '# Work summary: three string helpers\n\n## Done\n- `capitalize(text)` in `src/capitalize.js`, tests in `test/capitalize.test.js` (task `capitalize`).\n- `camelCase(text)` in `src/camel-case.js`, tests in `test/camel-case.test.js` (task `camel-case`).\n- `truncate(text, n)` in `src/truncate.js`, tests in `test/truncate.test.js` (task `truncate`).\n- `src/index.js` exports all four helpers; the README lists them, with examples.\n\n## Against INTENT.md\n| success criterion | how it is met |\n|---|---|\n| `capitalize` upper-cases the first character only; `""` stays `""` | `test/capitalize.test.js` |\n| `camelCase` breaks words on spaces, dashes, underscores and repeats | `test/camel-case.test.js` |\n| `truncate("hello world", 8)` is `"hello w…"`; never longer than n | `test/truncate.test.js`, including n = 0 and n = 1, as asked in the review of PLAN.md |\n| `npm test` passes | each task\'s verifier checked its module and tests against the brief; run `npm test` on `cfa/1` to see it pass |\n| importable from `textkit` | `src/index.js` |\n\n## Against PLAN.md\n- Phase 1, build: the three tasks ran in parallel; each was verified (pass) and merged.\n- Phase 2, wire up: `src/index.js` and the README, written after the merges.\n\n## Left open\n- The helpers count UTF-16 code units, as PLAN.md\'s risks say; grapheme-aware\n  behaviour would be a new request.\n',
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_024",
            name: "ask_question",
            input: {
              kind: "gate",
              text: "WORK_SUMMARY.md is ready: all three helpers are built, verified and merged, and exported from src/index.js. Approve the work?",
              artifact: ".cfa/jobs/1/WORK_SUMMARY.md",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        expect: {
          toolResultFor: "ask_question",
          lastUserIncludes: "approved by @ana",
        },
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_025",
            name: "finish",
            input: {
              outcome: "APPROVED_WORK",
              reason:
                "@ana approved WORK_SUMMARY.md: capitalize, camelCase and truncate are built, verified, merged and exported.",
            },
          },
        ],
        stopReason: "tool_use",
      },
    ],
    "worker@dispatch:camel-case": [
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_305",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "src/slugify.js",
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_306",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "test/slugify.test.js",
            },
          },
        ],
        stopReason: "tool_use",
        expect: {
          lastUserIncludes: "Your task",
        },
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_026",
            name: "str_replace_based_edit_tool",
            input: {
              command: "create",
              path: "src/camel-case.js",
              file_text:
                '/**\n * "hello world" → "helloWorld": words split on spaces, dashes and underscores; the first\n * lower-cased, the others capitalised, then joined.\n * @param {string} text\n * @returns {string}\n */\nexport function camelCase(text) {\n  const words = String(text).split(/[\\s_-]+/).filter(Boolean);\n  return words\n    .map((word, i) => {\n      const lower = word.toLowerCase();\n      return i === 0 ? lower : lower.charAt(0).toUpperCase() + lower.slice(1);\n    })\n    .join("");\n}\n',
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_027",
            name: "str_replace_based_edit_tool",
            input: {
              command: "create",
              path: "test/camel-case.test.js",
              file_text:
                'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { camelCase } from "../src/camel-case.js";\n\ntest("camelCase joins words, capitalising all but the first", () => {\n  assert.equal(camelCase("hello world"), "helloWorld");\n});\n\ntest("camelCase breaks words on dashes, underscores and repeats", () => {\n  assert.equal(camelCase("Hello-big_world"), "helloBigWorld");\n  assert.equal(camelCase("  many   spaces--here "), "manySpacesHere");\n});\n\ntest("camelCase of nothing is nothing", () => {\n  assert.equal(camelCase(""), "");\n});\n',
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_501",
            name: "bash",
            input: {
              command: "node --test test/camel-case.test.js",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_101",
            name: "bash",
            input: {
              command: "npm test",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_307",
            name: "bash",
            input: {
              command: "git status --short",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_028",
            name: "reply",
            input: {
              text: "camel-case is done: `camelCase(text)` in src/camel-case.js (JSDoc in slugify's style) splits on spaces, dashes and underscores, repeats included. test/camel-case.test.js covers each separator, repeats and the empty string. `npm test` passes. No other file touched.",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "text",
            text: "Done.",
          },
        ],
        stopReason: "end_turn",
      },
    ],
    "verifier@verify:camel-case-1": [
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_308",
            name: "bash",
            input: {
              command: "git log --oneline -3 && git show --stat --format=%s HEAD",
            },
          },
        ],
        stopReason: "tool_use",
        expect: {
          lastUserIncludes: "Verify task `camel-case` of job #1.",
        },
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_029",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "src/camel-case.js",
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_030",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "test/camel-case.test.js",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_102",
            name: "bash",
            input: {
              command: "npm test",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_031",
            name: "verdict",
            input: {
              verdict: "pass",
              issues: [],
              notes:
                "src/camel-case.js does what the brief asks, in slugify's style, and test/camel-case.test.js covers every case the brief names. `npm test` passes. No other file changed.",
            },
          },
        ],
        stopReason: "tool_use",
      },
    ],
    "worker@dispatch:capitalize": [
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_309",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "src/slugify.js",
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_310",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "test/slugify.test.js",
            },
          },
        ],
        stopReason: "tool_use",
        expect: {
          lastUserIncludes: "Your task",
        },
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_032",
            name: "str_replace_based_edit_tool",
            input: {
              command: "create",
              path: "src/capitalize.js",
              file_text:
                '/**\n * "hello world" → "Hello world": the first character upper-cased, the rest untouched.\n * Counts UTF-16 code units, like String.prototype.slice.\n * @param {string} text\n * @returns {string}\n */\nexport function capitalize(text) {\n  const s = String(text);\n  return s.charAt(0).toUpperCase() + s.slice(1);\n}\n',
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_033",
            name: "str_replace_based_edit_tool",
            input: {
              command: "create",
              path: "test/capitalize.test.js",
              file_text:
                'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { capitalize } from "../src/capitalize.js";\n\ntest("capitalize upper-cases the first character only", () => {\n  assert.equal(capitalize("hello world"), "Hello world");\n  assert.equal(capitalize("hELLO"), "HELLO");\n});\n\ntest("capitalize leaves the empty string empty", () => {\n  assert.equal(capitalize(""), "");\n});\n',
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_502",
            name: "bash",
            input: {
              command: "node --test test/capitalize.test.js",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_103",
            name: "bash",
            input: {
              command: "npm test",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_311",
            name: "bash",
            input: {
              command: "git status --short",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_034",
            name: "reply",
            input: {
              text: "capitalize is done: `capitalize(text)` in src/capitalize.js upper-cases the first character and leaves the rest untouched. test/capitalize.test.js covers a sentence, mixed case and the empty string. `npm test` passes. No other file touched.",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "text",
            text: "Done.",
          },
        ],
        stopReason: "end_turn",
      },
    ],
    "verifier@verify:capitalize-1": [
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_312",
            name: "bash",
            input: {
              command: "git log --oneline -3 && git show --stat --format=%s HEAD",
            },
          },
        ],
        stopReason: "tool_use",
        expect: {
          lastUserIncludes: "Verify task `capitalize` of job #1.",
        },
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_035",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "src/capitalize.js",
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_036",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "test/capitalize.test.js",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_104",
            name: "bash",
            input: {
              command: "npm test",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_037",
            name: "verdict",
            input: {
              verdict: "pass",
              issues: [],
              notes:
                "src/capitalize.js does what the brief asks, in slugify's style, and test/capitalize.test.js covers every case the brief names. `npm test` passes. No other file changed.",
            },
          },
        ],
        stopReason: "tool_use",
      },
    ],
    "worker@dispatch:truncate": [
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_313",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "src/slugify.js",
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_314",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "test/slugify.test.js",
            },
          },
        ],
        stopReason: "tool_use",
        expect: {
          lastUserIncludes: "Your task",
        },
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_038",
            name: "str_replace_based_edit_tool",
            input: {
              command: "create",
              path: "src/truncate.js",
              file_text:
                '/**\n * truncate("hello world", 8) → "hello w…": never longer than n characters, the ellipsis\n * included; a string that fits comes back unchanged. Counts UTF-16 code units.\n * @param {string} text\n * @param {number} n\n * @returns {string}\n */\nexport function truncate(text, n) {\n  const s = String(text);\n  const max = Math.max(0, Math.floor(n));\n  if (s.length <= max) return s;\n  if (max === 0) return "";\n  return `${s.slice(0, max - 1)}…`;\n}\n',
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_039",
            name: "str_replace_based_edit_tool",
            input: {
              command: "create",
              path: "test/truncate.test.js",
              file_text:
                'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { truncate } from "../src/truncate.js";\n\ntest("truncate cuts to n characters, the ellipsis included", () => {\n  assert.equal(truncate("hello world", 8), "hello w…");\n  assert.equal(truncate("hello world", 8).length, 8);\n});\n\ntest("truncate leaves a string that fits unchanged", () => {\n  assert.equal(truncate("hello", 8), "hello");\n  assert.equal(truncate("hello", 5), "hello");\n});\n\ntest("truncate handles the smallest limits", () => {\n  assert.equal(truncate("hello", 1), "…");\n  assert.equal(truncate("hello", 0), "");\n});\n',
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_503",
            name: "bash",
            input: {
              command: "node --test test/truncate.test.js",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_105",
            name: "bash",
            input: {
              command: "npm test",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_315",
            name: "bash",
            input: {
              command: "git status --short",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_040",
            name: "reply",
            input: {
              text: "truncate is done: `truncate(text, n)` in src/truncate.js never returns more than n characters, the ellipsis included. test/truncate.test.js covers a long string, a short one, exactly n, n = 1 and n = 0. `npm test` passes. No other file touched.",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "text",
            text: "Done.",
          },
        ],
        stopReason: "end_turn",
      },
    ],
    "verifier@verify:truncate-1": [
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_316",
            name: "bash",
            input: {
              command: "git log --oneline -3 && git show --stat --format=%s HEAD",
            },
          },
        ],
        stopReason: "tool_use",
        expect: {
          lastUserIncludes: "Verify task `truncate` of job #1.",
        },
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_041",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "src/truncate.js",
            },
          },
          {
            type: "tool_use",
            id: "toolu_demo_042",
            name: "str_replace_based_edit_tool",
            input: {
              command: "view",
              path: "test/truncate.test.js",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_106",
            name: "bash",
            input: {
              command: "npm test",
            },
          },
        ],
        stopReason: "tool_use",
      },
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_demo_043",
            name: "verdict",
            input: {
              verdict: "pass",
              issues: [],
              notes:
                "src/truncate.js does what the brief asks, in slugify's style, and test/truncate.test.js covers every case the brief names. `npm test` passes. No other file changed.",
            },
          },
        ],
        stopReason: "tool_use",
      },
    ],
  },
};

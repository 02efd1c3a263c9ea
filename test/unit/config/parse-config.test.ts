// `.github/cfa.yml` (docs/configuration.md): all optional, defaults filled, every
// mistake reported as a value naming the field, never thrown, never silently ignored.

import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Caps } from "../../../src/protocol/failure.js";
import {
  CONFIG_PATH,
  DEFAULT_COMMANDS,
  ROLES,
  defaultConfig,
  formatConfigErrors,
  parseConfig,
  type CfaConfig,
  type ConfigIssue,
} from "../../../src/config/index.js";

const ok = (yaml: string | null): CfaConfig => {
  const result = parseConfig(yaml);
  if (!result.ok) throw new Error(`expected a valid config, got ${JSON.stringify(result.errors)}`);
  return result.config;
};

const errors = (yaml: string, source?: string): ConfigIssue[] => {
  const result = parseConfig(yaml, source);
  if (result.ok) throw new Error("expected errors");
  return result.errors;
};

const messages = (yaml: string) => errors(yaml).map((e) => e.message);

// The documented defaults (docs/sandbox.md), written out: a change to them shows here.
const LIMITS = {
  processes: 256,
  memoryMiB: 2048,
  fileSizeMiB: 512,
  cpuSeconds: 600,
  tmpMiB: 32,
  openFiles: 4096,
  connections: 128,
};

// The default command lists (docs/configuration.md), written out: shells and make for the
// project's scripts and the build and test tools of every ecosystem; the sandbox is the
// boundary, not these lists.
const READING = ["ls", "cat", "grep", "find", "head", "tail", "wc", "diff"];
const CHANGING = ["sed", "mkdir", "cp", "mv", "rm", "touch"];
const BUILDING = [
  "git",
  "sh",
  "bash",
  "make",
  "node",
  "npm",
  "npx",
  "yarn",
  "pnpm",
  "corepack",
  "python",
  "python3",
  "pip",
  "pip3",
  "pytest",
  "tox",
  "uv",
  "poetry",
  "ruff",
  "mypy",
  "go",
  "gofmt",
  "cargo",
  "rustc",
  "rustfmt",
  "rustup",
  "java",
  "javac",
  "mvn",
  "gradle",
  "ruby",
  "gem",
  "bundle",
  "rake",
  "rspec",
  "dotnet",
];

const DEFAULTS: CfaConfig = {
  label: "cfa",
  escalation: { INTENT: "always", PLAN: "always", EXECUTE: "always" },
  retryBudget: 3,
  nudges: 5,
  caps: { turns: 200, backtracks: 5, costUsd: 25 },
  fanOut: 3,
  dispatchDepth: 3,
  setup: { commands: [], network: "detect", timeoutSeconds: 900 },
  instructions: ["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"],
  mcp: {
    tools: {
      "intent-lead": [],
      "project-lead": [],
      worker: ["mcp__*"],
      verifier: ["mcp__*"],
      proxy: [],
    },
    startSeconds: 60,
    callSeconds: 120,
  },
  execute: { runners: "auto" },
  models: {
    "intent-lead": "capable",
    "project-lead": "capable",
    worker: "capable",
    verifier: "capable",
    proxy: "capable",
  },
  commands: {
    "intent-lead": ["git", ...READING],
    "project-lead": ["git", ...READING],
    worker: [...BUILDING, ...CHANGING, ...READING],
    verifier: [...BUILDING, ...READING],
    proxy: READING,
  },
  network: {
    "intent-lead": false,
    "project-lead": false,
    worker: false,
    verifier: false,
    proxy: false,
  },
  commandLimits: {
    "intent-lead": LIMITS,
    "project-lead": LIMITS,
    worker: LIMITS,
    verifier: LIMITS,
    proxy: LIMITS,
  },
  sandbox: "require",
  sandboxReadOnlyPaths: [],
  output: {
    "intent-lead": {},
    "project-lead": {},
    worker: {},
    verifier: {},
    proxy: {},
  },
  limits: {
    toolCallsPerTurn: 60,
    commandTimeoutSeconds: 300,
    commandOutputBytes: 65536,
    fileMiB: 10,
    turnTimeoutSeconds: 3600,
    apiPatienceMinutes: 15,
    runMinutes: 340,
    stopMarginMinutes: 20,
  },
  provider: "anthropic",
  bedrock: { models: {} },
  vertex: { models: {} },
  workflow: "cfa.yml",
  approvers: [],
  reviewers: [],
  pushWorkflows: false,
  allowBots: [],
  auditTrail: "keep",
  gates: {},
  followups: { intent: "gate" },
};

describe("parseConfig: defaults", () => {
  it("reads .github/cfa.yml by default", () => {
    expect(CONFIG_PATH).toBe(".github/cfa.yml");
  });

  it.each([
    ["no file", null],
    ["an empty file", ""],
    ["only comments", "# nothing to change yet\n"],
    ["an empty mapping", "{}\n"],
  ])("fills every default for %s", (_, yaml) => {
    expect(ok(yaml)).toEqual(DEFAULTS);
    expect(defaultConfig()).toEqual(DEFAULTS);
  });

  it("gives shells only to the roles that run the project's scripts (the sandbox is the boundary)", () => {
    for (const role of ROLES) {
      const runsScripts = role === "worker" || role === "verifier";
      expect(DEFAULT_COMMANDS[role].includes("sh")).toBe(runsScripts);
      expect(DEFAULT_COMMANDS[role].includes("bash")).toBe(runsScripts);
    }
  });

  it("reads both forms of sandbox: the mode alone, or a mapping with read-only paths", () => {
    expect(ok("sandbox: off\n")).toMatchObject({ sandbox: "off", sandboxReadOnlyPaths: [] });
    expect(ok("sandbox: { readOnlyPaths: [/opt/tools, ~/.sdkman] }\n")).toMatchObject({
      sandbox: "require",
      sandboxReadOnlyPaths: ["/opt/tools", "~/.sdkman"],
    });
    expect(ok("sandbox: { mode: off }\n")).toMatchObject({ sandbox: "off" });
  });

  it("reads both forms of setup: shell lines and argv lists, or a mapping with network and time", () => {
    expect(ok("setup: [npm ci, [pip, install, -r, requirements.txt]]\n").setup).toEqual({
      commands: [
        ["sh", "-c", "npm ci"],
        ["pip", "install", "-r", "requirements.txt"],
      ],
      network: "detect",
      timeoutSeconds: 900,
    });
    expect(
      ok("setup: { commands: ['npm ci && npm run build'], network: [node], timeoutSeconds: 60 }\n")
        .setup,
    ).toEqual({
      commands: [["sh", "-c", "npm ci && npm run build"]],
      network: ["node"],
      timeoutSeconds: 60,
    });
    expect(ok("setup: { commands: [make deps], network: false }\n").setup.network).toBe(false);
  });

  it("refuses a setup command that is empty, not text, or a network entry that is no host", () => {
    expect(messages("setup: ['']\n").join("\n")).toMatch(/setup/);
    expect(messages("setup: [[]]\n").join("\n")).toMatch(/setup/);
    expect(messages("setup: { commands: [npm ci], network: [nodejs] }\n").join("\n")).toMatch(
      /setup\.network/,
    );
    expect(messages("setup: { command: [npm ci] }\n").join("\n")).toMatch(/setup/);
  });

  it("reads a network list of ecosystems and hosts, lowercased", () => {
    const config = ok("network: { worker: [node, Registry.Example.com, '*.corp.example:8443'] }\n");
    expect(config.network.worker).toEqual(["node", "registry.example.com", "*.corp.example:8443"]);
    expect(config.network.verifier).toBe(false);
  });

  it("hands out fresh defaults: changing one parse does not change the next", () => {
    const first = ok(null);
    first.commands.worker.push("curl");
    first.approvers.push("mallory");
    expect(ok(null).commands.worker).not.toContain("curl");
    expect(ok("label: x\n").approvers).toEqual([]);
  });

  it("keeps the defaults of the keys a partial section leaves out", () => {
    const config = ok(
      "escalation:\n  PLAN: never\ncaps:\n  costUsd: 2.5\nmodels:\n  worker: fast\n",
    );
    expect(config.escalation).toEqual({ INTENT: "always", PLAN: "never", EXECUTE: "always" });
    expect(config.caps).toEqual({ turns: 200, backtracks: 5, costUsd: 2.5 });
    expect(config.models).toEqual({ ...DEFAULTS.models, worker: "fast" });
  });

  it("sets one role's command limits, keeping the others and the rest at their defaults", () => {
    const config = ok("commandLimits:\n  worker:\n    tmpMiB: 512\n    processes: 1024\n");
    expect(config.commandLimits.worker).toEqual({ ...LIMITS, tmpMiB: 512, processes: 1024 });
    expect(config.commandLimits.verifier).toEqual(LIMITS);
  });

  it("refuses a command limit that could not work, naming it", () => {
    expect(messages("commandLimits:\n  worker:\n    processes: 2\n")[0]).toMatch(
      /commandLimits\.worker\.processes/,
    );
    expect(messages("commandLimits:\n  worker:\n    disk: 5\n")[0]).toMatch(/disk/);
  });

  it("treats a key with nothing after the colon as unset", () => {
    expect(ok("label:\ncaps:\n  turns:\napprovers:\n")).toEqual(DEFAULTS);
  });

  it("reads every setting when all are given", () => {
    const yaml = `
label: ai-task
escalation: { INTENT: always, PLAN: when_unsure, EXECUTE: never }
retryBudget: 0
nudges: 2
caps: { turns: 50, backtracks: 0, costUsd: 3 }
fanOut: 1
dispatchDepth: 2
execute: { runners: per-task }
models: { intent-lead: reasoning, project-lead: claude-opus-4-1, worker: fast, verifier: capable, proxy: claude-sonnet-4-5 }
commands:
  worker: [git, node, sh]
  proxy: []
network: { worker: true, verifier: [python, pypi.internal.example] }
setup: { commands: [npm ci, [make, deps]], network: [node], timeoutSeconds: 120 }
mcp: { tools: { project-lead: [mcp__docs__*], worker: [mcp__playwright__*] }, startSeconds: 90, callSeconds: 30 }
commandLimits: { worker: { processes: 512, memoryMiB: 4096, fileSizeMiB: 64, cpuSeconds: 120, tmpMiB: 256, openFiles: 1024, connections: 16 } }
sandbox: "off"
limits: { toolCallsPerTurn: 10, commandTimeoutSeconds: 21600, commandOutputBytes: 1024, fileMiB: 50, maxTokens: 32000, apiPatienceMinutes: 60 }
output: { worker: { maxTokens: 64000, effort: medium }, proxy: { effort: low } }
provider: bedrock
bedrock: { region: eu-central-1, models: { claude-sonnet-5-5: eu.anthropic.claude-sonnet-5-5 } }
vertex: { region: us-east5, project: my-project-123, models: { claude-opus-5-5: claude-opus-5-5@20260928 } }
workflow: cfa-worker.yaml
approvers: [alice, Bob-2]
reviewers: [carol]
pushWorkflows: true
allowBots: ['renovate[bot]', my-app]
auditTrail: drop
gates: { remindAfterHours: 12, expireAfterDays: 3.5 }
instructions: [AGENTS.md, docs/agents.md]
followups: { intent: auto }
`;
    expect(ok(yaml)).toEqual({
      instructions: ["AGENTS.md", "docs/agents.md"],
      label: "ai-task",
      escalation: { INTENT: "always", PLAN: "when_unsure", EXECUTE: "never" },
      retryBudget: 0,
      nudges: 2,
      caps: { turns: 50, backtracks: 0, costUsd: 3 },
      fanOut: 1,
      dispatchDepth: 2,
      setup: {
        commands: [
          ["sh", "-c", "npm ci"],
          ["make", "deps"],
        ],
        network: ["node"],
        timeoutSeconds: 120,
      },
      mcp: {
        tools: {
          ...DEFAULTS.mcp.tools,
          "project-lead": ["mcp__docs__*"],
          worker: ["mcp__playwright__*"],
        },
        startSeconds: 90,
        callSeconds: 30,
      },
      execute: { runners: "per-task" },
      models: {
        "intent-lead": "reasoning",
        "project-lead": "claude-opus-4-1",
        worker: "fast",
        verifier: "capable",
        proxy: "claude-sonnet-4-5",
      },
      commands: { ...DEFAULTS.commands, worker: ["git", "node", "sh"], proxy: [] },
      network: { ...DEFAULTS.network, worker: true, verifier: ["python", "pypi.internal.example"] },
      commandLimits: {
        ...DEFAULTS.commandLimits,
        worker: {
          processes: 512,
          memoryMiB: 4096,
          fileSizeMiB: 64,
          cpuSeconds: 120,
          tmpMiB: 256,
          openFiles: 1024,
          connections: 16,
        },
      },
      sandbox: "off",
      sandboxReadOnlyPaths: [],
      limits: {
        toolCallsPerTurn: 10,
        commandTimeoutSeconds: 21600,
        commandOutputBytes: 1024,
        fileMiB: 50,
        maxTokens: 32000,
        turnTimeoutSeconds: 3600,
        apiPatienceMinutes: 60,
        runMinutes: 340,
        stopMarginMinutes: 20,
      },
      output: {
        ...DEFAULTS.output,
        worker: { maxTokens: 64000, effort: "medium" },
        proxy: { effort: "low" },
      },
      provider: "bedrock",
      bedrock: {
        region: "eu-central-1",
        models: { "claude-sonnet-5-5": "eu.anthropic.claude-sonnet-5-5" },
      },
      vertex: {
        region: "us-east5",
        project: "my-project-123",
        models: { "claude-opus-5-5": "claude-opus-5-5@20260928" },
      },
      workflow: "cfa-worker.yaml",
      approvers: ["alice", "Bob-2"],
      reviewers: ["carol"],
      pushWorkflows: true,
      allowBots: ["renovate[bot]", "my-app"],
      auditTrail: "drop",
      gates: { remindAfterHours: 12, expireAfterDays: 3.5 },
      followups: { intent: "auto" },
    });
  });

  it("types the config from the schema, with caps usable as the protocol's Caps", () => {
    const config = ok(null);
    expectTypeOf(config.caps).toExtend<Caps>();
    expectTypeOf(config.escalation.PLAN).toEqualTypeOf<"never" | "when_unsure" | "always">();
    expectTypeOf(config.commands.worker).toEqualTypeOf<string[]>();
    expectTypeOf(config.sandbox).toEqualTypeOf<"require" | "off">();
  });
});

describe("parseConfig: a message names the field as a dotted path", () => {
  it("says what an escalation policy may be and what it got", () => {
    expect(errors("escalation:\n  PLAN: sometimes\n")).toEqual([
      {
        path: "escalation.PLAN",
        message: 'escalation.PLAN: expected one of never, when_unsure, always, got "sometimes"',
      },
    ]);
  });

  it.each([
    ["label: ''", "label: must not be empty"],
    [`label: ${"x".repeat(51)}`, `label: expected at most 50 characters, got "${"x".repeat(40)}"…`],
    ["label: 7", "label: expected a string, got 7"],
    ["retryBudget: 2.5", "retryBudget: expected a whole number, got 2.5"],
    ["retryBudget: -1", "retryBudget: expected a number >= 0, got -1"],
    ["retryBudget: three", 'retryBudget: expected a number, got "three"'],
    ["caps: { turns: 0 }", "caps.turns: expected a number >= 1, got 0"],
    ["caps: { backtracks: -2 }", "caps.backtracks: expected a number >= 0, got -2"],
    ["caps: { costUsd: 0 }", "caps.costUsd: expected a number > 0, got 0"],
    ["caps: 200", "caps: expected a mapping, got 200"],
    ["fanOut: 0", "fanOut: expected a number >= 1, got 0"],
    ["fanOut: 21", "fanOut: expected a number <= 20, got 21"],
    [
      "execute: { runners: many }",
      'execute.runners: expected one of single, auto, per-task, got "many"',
    ],
    ["models: { worker: [fast] }", "models.worker: expected a string, got a list"],
    [
      "network: { worker: yes }",
      'network.worker: expected true, false, or a list of ecosystems and host names, got "yes"',
    ],
    [
      "network: { worker: [node, nodejs] }",
      'network.worker[1]: "nodejs" is neither an ecosystem (defaults, node, python, go, rust, java, ruby, dotnet, github, containers) nor a host name; did you mean "node"?',
    ],
    [
      "network: { worker: [localhost] }",
      'network.worker[0]: "localhost" is this machine (loopback or link-local): commands never reach the runner\'s own services',
    ],
    [
      "network: { worker: ['169.254.169.254'] }",
      'network.worker[0]: "169.254.169.254" is this machine (loopback or link-local): commands never reach the runner\'s own services',
    ],
    [
      "network: { worker: ['https://registry.example.com/'] }",
      'network.worker[0]: "https://registry.example.com/" is not a host name such as registry.example.com, *.example.com or mirror.example.com:8443',
    ],
    [
      "network: { worker: [] }",
      "network.worker: an empty list gives no network: write false, or name ecosystems or hosts",
    ],
    [
      "sandbox: { readOnlyPaths: [/opt] }",
      'sandbox.readOnlyPaths[0]: "/opt" is too wide: name the toolchain\'s own folder (e.g. /opt/pipx or ~/.cargo)',
    ],
    [
      "sandbox: { readOnlyPaths: [~/.ssh/keys] }",
      'sandbox.readOnlyPaths[0]: "~/.ssh/keys" would show ~/.ssh, which holds credentials',
    ],
    [
      "sandbox: { readOnlyPaths: [tools/bin] }",
      'sandbox.readOnlyPaths[0]: "tools/bin" must be an absolute path, or start with ~/ for the worker\'s home',
    ],
    [
      "sandbox: { readOnlyPaths: [/srv/tools/../../etc] }",
      'sandbox.readOnlyPaths[0]: "/srv/tools/../../etc" must be a plain path (no //, . or .. parts, no trailing /)',
    ],
    ["sandbox: { mode: maybe }", 'sandbox.mode: expected one of require, off, got "maybe"'],
    [
      "sandbox: { mode: off, readonlyPaths: [] }",
      'sandbox.readonlyPaths: unknown key; did you mean "readOnlyPaths"? (known keys: mode, readOnlyPaths)',
    ],
    ["sandbox: maybe", 'sandbox: expected one of require, off, got "maybe"'],
    [
      "limits: { commandTimeoutSeconds: 99999 }",
      "limits.commandTimeoutSeconds: expected a number <= 21600, got 99999",
    ],
    ["limits: { maxTokens: 0 }", "limits.maxTokens: expected a number >= 1024, got 0"],
    // GitHub refuses files over 100 MiB: no configuration lets one into a commit.
    ["limits: { fileMiB: 101 }", "limits.fileMiB: expected a number <= 100, got 101"],
    ["provider: openai", 'provider: expected one of anthropic, bedrock, vertex, got "openai"'],
    [
      "bedrock: { region: mars }",
      'bedrock.region: expected an AWS region such as us-east-1, got "mars"',
    ],
    ["vertex: { project: X }", 'vertex.project: expected a Google Cloud project id, got "X"'],
    [
      "output: { worker: { effort: extreme } }",
      'output.worker.effort: expected one of low, medium, high, xhigh, max, got "extreme"',
    ],
    ["workflow: cfa", 'workflow: expected a workflow file name such as cfa.yml, got "cfa"'],
    ["approvers: alice", 'approvers: expected a list, got "alice"'],
    ["approvers: [alice, -bob]", 'approvers[1]: expected a GitHub login, got "-bob"'],
    [
      "allowBots: ['bad bot']",
      'allowBots[0]: expected a GitHub login such as my-app[bot], got "bad bot"',
    ],
    ["auditTrail: delete", 'auditTrail: expected one of keep, drop, got "delete"'],
  ])("%s → %s", (yaml, message) => {
    expect(messages(yaml)).toEqual([message]);
  });

  it("names a bad gates setting in one line each", () => {
    expect(messages("gates: { remindAfterHours: -1 }\n")).toHaveLength(1);
    expect(messages("gates: { remindAfterHours: -1 }\n")[0]).toMatch(/^gates\.remindAfterHours: /);
    expect(messages("gates: { expireAfterDays: soon }\n")[0]).toMatch(/^gates\.expireAfterDays: /);
    expect(messages("gates: { remindEvery: 3 }\n")[0]).toMatch(/^gates/);
    expect(messages("followups: { intent: always }\n")[0]).toMatch(/^followups\.intent: /);
  });

  it("names a list element by its index", () => {
    expect(errors("commands:\n  worker: [git, /bin/sh, 3]\n")).toEqual([
      {
        path: "commands.worker[1]",
        message:
          'commands.worker[1]: expected a program name, not a path or a command line, got "/bin/sh"',
      },
      { path: "commands.worker[2]", message: "commands.worker[2]: expected a string, got 3" },
    ]);
    expect(messages("commands:\n  worker: ['git push']\n")[0]).toMatch(/^commands\.worker\[0\]: /);
  });

  it("catches a misspelt model tier instead of taking it for a model id", () => {
    expect(messages("models:\n  verifier: capabel\n")).toEqual([
      'models.verifier: "capabel" is neither a tier nor a model id; did you mean "capable"?',
    ]);
    expect(messages("models:\n  verifier: 'claude sonnet'\n")).toEqual([
      'models.verifier: expected a tier (reasoning, capable, fast) or a model id, got "claude sonnet"',
    ]);
  });

  it("reports every bad field at once", () => {
    const paths = errors("retryBudget: -1\nsandbox: none\ncaps: { turns: 0 }\n").map((e) => e.path);
    expect(paths.sort()).toEqual(["caps.turns", "retryBudget", "sandbox"]);
  });

  it("shortens a long value it quotes", () => {
    const [message] = messages(`sandbox: ${"y".repeat(500)}\n`);
    expect(message).toContain(`"${"y".repeat(40)}"…`);
    expect(message?.length).toBeLessThan(120);
  });
});

describe("parseConfig: unknown keys are errors", () => {
  it.each([
    ["retrybudget: 2", "retrybudget", 'did you mean "retryBudget"?'],
    ["caps:\n  turn: 10", "caps.turn", 'did you mean "turns"?'],
    ["escalation:\n  EXECUTION: never", "escalation.EXECUTION", 'did you mean "EXECUTE"?'],
    ["models:\n  workers: fast", "models.workers", 'did you mean "worker"?'],
    [
      "network:\n  tester: true",
      "network.tester",
      "known keys: intent-lead, project-lead, worker, verifier, proxy",
    ],
    ["limits:\n  timeout: 5", "limits.timeout", "known keys: toolCallsPerTurn"],
    ["colour: blue", "colour", "known keys: label, escalation"],
  ])("%s → %s", (yaml, path, hint) => {
    const [error, ...rest] = errors(`${yaml}\n`);
    expect(rest).toEqual([]);
    expect(error?.path).toBe(path);
    expect(error?.message).toMatch(new RegExp(`^${path.replace(/[.[\]]/g, "\\$&")}: unknown key`));
    expect(error?.message).toContain(hint);
  });

  it("refuses __proto__ as a key rather than letting it reach an object's prototype", () => {
    expect(errors("__proto__: { label: x }\n")).toEqual([
      { path: "__proto__", message: expect.stringContaining("unknown key") as string },
    ]);
    expect(({} as Record<string, unknown>).label).toBeUndefined();
  });
});

describe("parseConfig: YAML errors", () => {
  it("names the file, line and column of a syntax error", () => {
    const [error, ...rest] = errors("label: cfa\ncaps: { turns: 3\nfanOut: 2\n");
    expect(rest).toEqual([]);
    expect(error?.path).toBe("");
    expect(error?.message).toMatch(/^\.github\/cfa\.yml: line \d+, column \d+: \S/);
  });

  it("reports a repeated key with its position", () => {
    expect(messages("label: a\nlabel: b\n")).toEqual([
      ".github/cfa.yml: line 2, column 1: Map keys must be unique",
    ]);
  });

  it("reports one error per line, not every knock-on error", () => {
    const found = messages("label: cfa\n\t- x\n");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/line 2, column \d+: Tabs/);
  });

  it("uses the source it was given", () => {
    expect(errors("a: [\n", "config/cfa.yml")[0]?.message).toMatch(/^config\/cfa\.yml: line \d+/);
  });

  it("refuses more than one document", () => {
    expect(messages("label: a\n---\nlabel: b\n")[0]).toMatch(
      /^\.github\/cfa\.yml: line 2, column 1: /,
    );
  });

  it("refuses an alias bomb", () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (const [from, to] of ["ab", "bc", "cd", "de", "ef"]) {
      lines.push(`${to}: &${to} [${Array(10).fill(`*${from}`).join(",")}]`);
    }
    expect(messages(lines.join("\n"))).toEqual([
      ".github/cfa.yml: Excessive alias count indicates a resource exhaustion attack",
    ]);
  });

  it("refuses an alias to no anchor", () => {
    expect(messages("label: *missing\n")[0]).toMatch(/^\.github\/cfa\.yml: .*alias/i);
  });

  it.each([
    ["a list", "- label: cfa\n", "a list"],
    ["a scalar", "just text\n", '"just text"'],
  ])("refuses a file that is %s, not a mapping", (_, yaml, got) => {
    expect(errors(yaml)).toEqual([
      { path: "", message: `.github/cfa.yml: expected a mapping, got ${got}` },
    ]);
  });
});

describe("parseConfig: any input", () => {
  it("returns a config or errors naming their field, and never throws", () => {
    const yamlish = fc.oneof(
      fc.string(),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc
        .dictionary(
          fc.constantFrom("label", "caps", "models", "limits", "escalation", "commands", "x"),
          fc.jsonValue(),
        )
        .map((value) => JSON.stringify(value)),
    );
    fc.assert(
      fc.property(yamlish, (text) => {
        const result = parseConfig(text);
        if (result.ok) return;
        expect(result.errors.length).toBeGreaterThan(0);
        for (const error of result.errors) {
          expect(error.message.startsWith(`${error.path || CONFIG_PATH}: `)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("parseConfig: instructions", () => {
  it("reads the repository's own instruction files by default, none with false, or the files named", () => {
    expect(ok("instructions: false\n").instructions).toEqual([]);
    expect(ok("instructions: true\n").instructions).toEqual([
      "AGENTS.md",
      "CLAUDE.md",
      ".github/copilot-instructions.md",
    ]);
    expect(ok("instructions: [docs/agents.md, AGENTS.md]\n").instructions).toEqual([
      "docs/agents.md",
      "AGENTS.md",
    ]);
  });

  it.each([
    ["instructions: [../outside.md]\n", /relative to the repository root/],
    ["instructions: [/etc/passwd]\n", /relative to the repository root/],
    ["instructions: [.git/config]\n", /not in \.git/],
    ["instructions: [a.md, a.md]\n", /named twice/],
    ["instructions: AGENTS.md\n", /expected true, false, or a list of file paths/],
  ])("refuses %j, naming the field", (yaml, message) => {
    const parsed = parseConfig(yaml);
    expect(parsed.ok).toBe(false);
    const text = parsed.ok ? "" : formatConfigErrors(parsed.errors);
    expect(text).toMatch(/instructions/);
    expect(text).toMatch(message);
  });
});

import { execFile } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The layer rules (.dependency-cruiser.json, run by `npm run lint`) hold: the tree as it is
// passes, and a copy of it with one wrong import planted per rule fails on each of them, by
// name, and on nothing else.

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DEPCRUISE = join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");

/**
 * One plant per rule: a file, what it imports, the rule it must break. A circle takes two
 * files (`with`), and is one violation, reported from either. `how`: a type-only or a dynamic
 * import instead of a static one — the engine's room rules count those too.
 */
const PLANTED: {
  file: string;
  imports: string[];
  rule: string;
  with?: string;
  how?: "type" | "dynamic";
}[] = [
  {
    file: "src/records/planted-a.ts",
    imports: ["./planted-b.js"],
    rule: "no-circular",
    with: "src/records/planted-b.ts",
  },
  {
    file: "src/protocol/planted.ts",
    imports: ["../records/engine-state.js"],
    rule: "protocol-imports-nothing-of-ours",
  },
  { file: "src/protocol/planted-io.ts", imports: ["node:fs"], rule: "protocol-does-no-io" },
  {
    file: "src/ports/planted.ts",
    imports: ["../config/index.js"],
    rule: "ports-import-only-the-protocol",
  },
  {
    file: "src/comments/planted.ts",
    imports: ["../engine/index.js"],
    rule: "foundations-stay-below",
  },
  {
    file: "src/agents/planted.ts",
    imports: ["../github-events/run-title.js"],
    rule: "agents-know-no-github",
  },
  {
    file: "src/engine/planted.ts",
    imports: ["../cli/cli-error.js"],
    rule: "engine-imports-no-entry-point",
  },
  {
    file: "src/adapters/local/planted.ts",
    imports: ["../../engine/index.js"],
    rule: "adapters-never-import-the-engine",
  },
  {
    file: "src/engine/planted-adapter.ts",
    imports: ["../adapters/git/index.js"],
    rule: "only-entry-points-wire-adapters",
  },
  {
    file: "src/github-events/planted.ts",
    imports: ["../adapters/sandbox/index.js"],
    rule: "github-events-reads-only-the-github-adapter",
  },
  { file: "src/worker/planted.ts", imports: ["../cli/wiring.js"], rule: "entry-points-apart" },
  {
    file: "src/wiring/planted.ts",
    imports: ["../worker/step-summary.js"],
    rule: "wiring-below-entry-points",
  },
  { file: "src/cli/planted.ts", imports: ["../engine/wake.js"], rule: "engine-has-one-door" },
  // The engine's rooms in their order (src/engine/index.ts): one import up from each.
  {
    file: "src/engine/tree/planted.ts",
    imports: ["../job/session.js"],
    rule: "engine-tree-imports-no-room-above",
    how: "type",
  },
  {
    file: "src/engine/job/planted.ts",
    imports: ["../turn/wake-runtime.js"],
    rule: "engine-job-imports-no-room-above",
    how: "dynamic",
  },
  {
    file: "src/engine/turn/planted.ts",
    imports: ["../people/poll-interventions.js"],
    rule: "engine-turn-imports-no-room-above",
  },
  {
    file: "src/engine/setup/planted.ts",
    imports: ["../tasks/verify-task.js"],
    rule: "engine-setup-imports-no-room-above",
    how: "type",
  },
  {
    file: "src/engine/fanout/planted.ts",
    imports: ["../tasks/provision-task.js"],
    rule: "engine-fanout-imports-no-room-above",
  },
  {
    file: "src/engine/tasks/planted.ts",
    imports: ["../flow/transitions.js"],
    rule: "engine-tasks-imports-no-room-above",
    how: "dynamic",
  },
  {
    file: "src/engine/flow/planted.ts",
    imports: ["../people/ingest.js"],
    rule: "engine-flow-imports-no-room-above",
    how: "type",
  },
  {
    file: "src/engine/people/planted.ts",
    imports: ["../apply/apply-turn.js"],
    rule: "engine-people-imports-no-room-above",
  },
  {
    file: "src/engine/apply/planted.ts",
    imports: ["../publish/status.js"],
    rule: "engine-apply-imports-no-room-above",
  },
  {
    file: "src/engine/publish/planted.ts",
    imports: ["../wake.js"],
    rule: "engine-publish-imports-no-room-above",
    how: "dynamic",
  },
  {
    file: "src/engine/planted-room/planted.ts",
    imports: ["../job/session.js"],
    rule: "engine-room-has-a-place",
  },
  { file: "src/config/planted.ts", imports: ["./missing.js"], rule: "not-to-unresolvable" },
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

/** `npm run lint:layers` in `cwd`: its exit code and what it printed. */
function lintLayers(cwd: string, extra: string[] = []): Promise<{ code: number; out: string }> {
  const args = [DEPCRUISE, "--config", ".dependency-cruiser.json", ...extra, "src"];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

/** The same check, its violations as JSON (that reporter always exits 0). */
async function violations(cwd: string): Promise<Violation[]> {
  const { out } = await lintLayers(cwd, ["--output-type", "json"]);
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

let copy: string;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), "cfa-layers-"));
  for (const entry of ["src", "tsconfig.json", "package.json", ".dependency-cruiser.json"]) {
    cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("layer rules (dependency-cruiser)", () => {
  it("npm run lint runs them after eslint, with this config, over src", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.lint).toMatch(/^eslint \. && npm run lint:layers$/);
    expect(pkg.scripts["lint:layers"]).toBe("depcruise --config .dependency-cruiser.json src");
  });

  it("control: the tree as it is breaks none of them", async () => {
    expect(await violations(copy)).toEqual([]);
    const lint = await lintLayers(copy);
    expect(lint.code, lint.out).toBe(0);
  });

  it(`fails on each of the ${new Set(PLANTED.map((p) => p.rule)).size} rules once a wrong import is planted, and on nothing else`, async () => {
    const line = (i: string, how: (typeof PLANTED)[number]["how"]) =>
      how === "type"
        ? `import type * as planted from "${i}";`
        : how === "dynamic"
          ? `export const planted = () => import("${i}");`
          : `import "${i}";`;
    const plant = (file: string, imports: string[], how?: (typeof PLANTED)[number]["how"]) => {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      writeFileSync(
        join(copy, file),
        `// planted by the layer-rules test\n${imports.map((i) => line(i, how)).join("\n")}\n`,
      );
    };
    for (const p of PLANTED) {
      plant(p.file, p.imports, p.how);
      if (p.with !== undefined)
        plant(p.with, [`./${p.file.split("/").pop()!.replace(/ts$/, "js")}`]);
    }
    const planted = await violations(copy);
    const found = planted.map((v) => {
      const p = PLANTED.find((x) => x.rule === v.rule.name && [x.file, x.with].includes(v.from));
      return p === undefined ? `unexpected ${v.rule.name}: ${v.from} → ${v.to}` : p.rule;
    });
    expect(found.sort()).toEqual(PLANTED.map((p) => p.rule).sort());
    expect(planted.every((v) => v.rule.severity === "error")).toBe(true);
    // The command lint runs fails, naming each rule.
    const lint = await lintLayers(copy);
    expect(lint.code).not.toBe(0);
    for (const p of PLANTED) expect(lint.out).toContain(`error ${p.rule}:`);
  });
});

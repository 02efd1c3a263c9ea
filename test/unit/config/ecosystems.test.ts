import { describe, expect, it } from "vitest";
import { commandsForEcosystems, DEFAULT_COMMANDS } from "../../../src/config/default-commands.js";
import { detectEcosystems } from "../../../src/config/detect-ecosystems.js";
import { ECOSYSTEM_HOSTS, ECOSYSTEMS } from "../../../src/config/ecosystems.js";
import { egressFor } from "../../../src/config/egress.js";
import { networkEntryProblem } from "../../../src/config/network-setting.js";

describe("detectEcosystems", () => {
  it.each([
    [["package-lock.json"], ["node"]],
    [["yarn.lock"], ["node"]],
    [["pnpm-lock.yaml"], ["node"]],
    [["package.json"], ["node"]],
    [["pyproject.toml"], ["python"]],
    [["requirements-dev.txt"], ["python"]],
    [["docs/requirements.txt"], ["python"]],
    [["setup.py"], ["python"]],
    [["Pipfile"], ["python"]],
    [["uv.lock"], ["python"]],
    [["go.mod"], ["go"]],
    [["Cargo.toml"], ["rust"]],
    [["pom.xml"], ["java"]],
    [["build.gradle.kts"], ["java"]],
    [["Gemfile"], ["ruby"]],
    [["src/App/App.csproj"], ["dotnet"]],
    [["App.sln"], ["dotnet"]],
    [["global.json"], ["dotnet"]],
    [["Dockerfile"], ["containers"]],
  ])("%j → %j", (files, expected) => {
    expect(detectEcosystems(files)).toEqual(expected);
  });

  it("finds every ecosystem of a monorepo, in a stable order, and never `defaults`", () => {
    const files = [
      "web/package.json",
      "api/go.mod",
      "ml/pyproject.toml",
      "README.md",
      "Cargo.toml",
    ];
    expect(detectEcosystems(files)).toEqual(["node", "python", "go", "rust"]);
  });

  it("ignores installed and vendored trees, and names that only look alike", () => {
    const files = [
      "node_modules/x/package.json",
      "vendor/y/go.mod",
      "package.json.bak",
      "my-go.mod",
      "notes.txt",
    ];
    expect(detectEcosystems(files)).toEqual([]);
  });
});

describe("egressFor", () => {
  it("false and unset give nothing; true gives everything", () => {
    expect(egressFor(undefined)).toBe(false);
    expect(egressFor(false)).toBe(false);
    expect(egressFor(true)).toBe(true);
  });

  it("expands ecosystems to their hosts and keeps host names, deduplicated", () => {
    const access = egressFor(["node", "go", "mirror.example.com:8443"]);
    expect(access).not.toBe(true);
    const hosts = (access as { hosts: string[] }).hosts;
    expect(hosts).toContain("registry.npmjs.org");
    expect(hosts).toContain("proxy.golang.org");
    expect(hosts).toContain("mirror.example.com:8443");
    // storage.googleapis.com is in both node and go: once.
    expect(hosts.filter((h) => h === "storage.googleapis.com")).toHaveLength(1);
  });

  it("every ecosystem has hosts but github's, containers', defaults' own; none of them is local", () => {
    for (const ecosystem of ECOSYSTEMS) {
      expect(ECOSYSTEM_HOSTS[ecosystem].length, ecosystem).toBeGreaterThan(0);
      for (const host of ECOSYSTEM_HOSTS[ecosystem])
        expect(networkEntryProblem(host), host).toBeNull();
    }
  });
});

describe("commandsForEcosystems", () => {
  it("gives the worker git, shells, make and the detected ecosystems' tools, and leads no more than before", () => {
    const worker = commandsForEcosystems("worker", ["python"]);
    expect(worker).toEqual(
      expect.arrayContaining(["git", "sh", "bash", "make", "python", "pytest", "ls"]),
    );
    expect(worker).not.toContain("npm");
    expect(commandsForEcosystems("intent-lead", ["python"])).toEqual([
      ...DEFAULT_COMMANDS["intent-lead"],
    ]);
  });
});

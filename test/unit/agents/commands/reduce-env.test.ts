import { describe, expect, it } from "vitest";
import { BASE_ENV_NAMES, reduceEnv } from "../../../../src/agents/commands/reduce-env.js";
import { API_KEY as ANTHROPIC_KEY } from "../../../support/anthropic/api-fixtures.js";
import { TOKEN as GH_TOKEN } from "../../../support/github/github-shapes.js";

const parent = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/home/runner",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  TZ: "UTC",
  TERM: "xterm",
  CI: "true",
  USER: "runner",
  GITHUB_TOKEN: GH_TOKEN,
  ANTHROPIC_API_KEY: ANTHROPIC_KEY,
  ACTIONS_RUNTIME_TOKEN: "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.payload",
  NODE_OPTIONS: "--max-old-space-size=2048",
  UNSET: undefined,
};

const home = "/work/ws";

describe("reduceEnv: only an allowlist passes, and never a secret", () => {
  it("passes the base names present, sets HOME to the workspace, and drops the rest", () => {
    expect(reduceEnv(parent, [], { home })).toEqual({
      PATH: parent.PATH,
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
      TZ: "UTC",
      TERM: "xterm",
      CI: "true",
      HOME: home,
    });
    expect(BASE_ENV_NAMES).not.toContain("HOME");
  });

  it("passes a role-configured name", () => {
    const env = reduceEnv(parent, ["NODE_OPTIONS", "UNSET", "MISSING"], { home });
    expect(env.NODE_OPTIONS).toBe("--max-old-space-size=2048");
    expect(env).not.toHaveProperty("UNSET");
    expect(env).not.toHaveProperty("MISSING");
    expect(env).not.toHaveProperty("USER");
  });

  it("never lets a role pass HOME through, or an invalid name", () => {
    const env = reduceEnv({ ...parent, "A=B": "x" }, ["HOME", "A=B"], { home });
    expect(env.HOME).toBe(home);
    expect(env).not.toHaveProperty("A=B");
  });

  it.each([
    "GITHUB_TOKEN",
    "ANTHROPIC_API_KEY",
    "ACTIONS_RUNTIME_TOKEN",
    "NPM_TOKEN",
    "MY_SECRET",
    "SSH_PRIVATE_KEY_PATH",
    "DB_PASSWORD",
    "AWS_SESSION_TOKEN",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "BASIC_AUTH",
    "session_cookie",
  ])("drops %s even when the role allows it (secret by name)", (name) => {
    const env = reduceEnv({ ...parent, [name]: "harmless-looking" }, [name], { home });
    expect(env).not.toHaveProperty(name);
  });

  it.each([
    ["a personal token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"],
    ["an OAuth token", "gho_abcdefghijklmnopqrstuvwxyz0123456789"],
    ["an installation token", GH_TOKEN],
    ["a fine-grained token", "github_pat_11ABCDEFG0123456789_abcdef"],
    ["an Anthropic key", ANTHROPIC_KEY],
    ["a PEM block", "-----BEGIN RSA PRIVATE KEY-----\nMIIE..."],
    ["a URL with a token in it", `https://x-access-token:${GH_TOKEN}@github.com/o/r.git`],
  ])("drops an allowed variable whose value is %s (secret by value)", (_what, value) => {
    const env = reduceEnv({ ...parent, REMOTE: value }, ["REMOTE"], { home });
    expect(env).not.toHaveProperty("REMOTE");
  });

  it("drops an allowed variable that carries a secret variable's value, whatever its shape", () => {
    const opaque = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5";
    const env = reduceEnv(
      { ...parent, DEPLOY_TOKEN: opaque, REGISTRY: `https://u:${opaque}@registry.example` },
      ["REGISTRY"],
      { home },
    );
    expect(env).not.toHaveProperty("REGISTRY");
  });

  it("drops a base variable too when it carries a secret (PATH included)", () => {
    const env = reduceEnv({ ...parent, PATH: `/usr/bin:/opt/${GH_TOKEN}` }, [], { home });
    expect(env).not.toHaveProperty("PATH");
  });

  it("keeps a variable that merely contains a short value of a secret-named variable", () => {
    const env = reduceEnv({ ...parent, SESSION_ID: "1" }, [], { home });
    expect(env.PATH).toBe(parent.PATH);
  });

  it("contains no secret value anywhere in the result", () => {
    const reduced = JSON.stringify(reduceEnv(parent, Object.keys(parent), { home }));
    expect(reduced).not.toContain(GH_TOKEN);
    expect(reduced).not.toContain(ANTHROPIC_KEY);
    expect(reduced).not.toContain("eyJ0eXAi");
  });
});

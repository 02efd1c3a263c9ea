import { describe, expect, it } from "vitest";
import {
  basicAuthHeader,
  basicCredentials,
  pushEnvironment,
} from "../../../../src/adapters/github/index.js";

describe("pushEnvironment", () => {
  const url = "https://github.com/octo-org/hello-world.git";

  it("passes the token as an http.extraHeader for the remote's URL through GIT_CONFIG_*", () => {
    const env = pushEnvironment({ PATH: "/bin", HOME: "/home/x" }, { url, token: "ghs_tok" });
    expect(env).toEqual({
      PATH: "/bin",
      HOME: "/home/x",
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_COUNT: "2",
      // An empty value first clears any header the clone carries for this URL.
      GIT_CONFIG_KEY_0: `http.${url}.extraHeader`,
      GIT_CONFIG_VALUE_0: "",
      GIT_CONFIG_KEY_1: `http.${url}.extraHeader`,
      GIT_CONFIG_VALUE_1: basicAuthHeader("ghs_tok"),
    });
    expect(basicAuthHeader("ghs_tok")).toBe(
      `AUTHORIZATION: basic ${Buffer.from("x-access-token:ghs_tok").toString("base64")}`,
    );
    expect(basicCredentials("ghs_tok")).toBe(
      Buffer.from("x-access-token:ghs_tok").toString("base64"),
    );
  });

  it("drops inherited git variables (simple-git would refuse them) and sets no header without a token", () => {
    const env = pushEnvironment(
      { PATH: "/bin", GIT_DIR: "/elsewhere", GIT_CONFIG_COUNT: "3", EDITOR: "vim", Pager: "less" },
      undefined,
    );
    expect(env).toEqual({ PATH: "/bin", GIT_TERMINAL_PROMPT: "0" });
  });

  it("sends no header to a remote that is not http(s)", () => {
    const env = pushEnvironment({}, { url: "/srv/git/remote.git", token: "ghs_tok" });
    expect(env).toEqual({ GIT_TERMINAL_PROMPT: "0" });
  });
});

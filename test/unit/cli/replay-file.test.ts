import { describe, expect, it } from "vitest";
import { CliError } from "../../../src/cli/cli-error.js";
import { parseReplayFile, serializeReplayFile } from "../../../src/cli/replay-file.js";

const base = {
  version: 1,
  request: { title: "Greet", body: "Say hello" },
  recording: { version: 1, instances: {} },
  people: [{ action: "approve" }],
};
const parse = (over: Record<string, unknown>) =>
  parseReplayFile(JSON.stringify({ ...base, ...over }), "x.json");

describe("the replay file", () => {
  it("defaults the person and each action's job", () => {
    const file = parse({});
    expect(file.person).toBe("you");
    expect(file.people).toEqual([{ action: "approve", job: 1 }]);
  });

  it("round-trips through its serialisation", () => {
    const file = parse({ files: { "src/a.js": "x\n" }, config: "label: cfa\n" });
    expect(parseReplayFile(serializeReplayFile(file), "x.json")).toEqual(file);
  });

  it.each([
    [{ version: 2 }, "at $.version"],
    [{ request: { title: " ", body: "" } }, "at $.request.title"],
    [
      { people: [{ action: "reject" }] },
      "at $.people[0].text: reject, answer, intervene and followup need a text",
    ],
    [{ people: [{ action: "answer", text: "yes", id: "2" }] }, "at $.people[0].id"],
    [{ people: [{ action: "merge" }] }, "at $.people[0].action"],
    [{ person: "not a login" }, "at $.person"],
    [{ surprise: true }, "at $: "],
  ])("refuses %j, naming where", (over, where) => {
    expect(() => parse(over)).toThrow(CliError);
    expect(() => parse(over)).toThrow(where);
  });

  it.each(["../outside.txt", "/etc/passwd", ".git/config", "a/../../b", "a//b", ".GIT/hooks/x"])(
    "refuses a file at %j: the replay must write inside its own repository",
    (path) => {
      expect(() => parse({ files: { [path]: "x" } })).toThrow(
        /relative, inside the repository and outside \.git/,
      );
    },
  );

  it("says when the text is not JSON", () => {
    expect(() => parseReplayFile("{", "x.json")).toThrow("x.json is not JSON");
  });
});

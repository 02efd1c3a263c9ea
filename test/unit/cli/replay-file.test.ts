import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { removeDir, tempDir } from "../../support/git/temp-repo.js";
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
    [{ request: { title: " ", body: "" } }, "at $.request.title"],
    [
      { people: [{ action: "reject" }] },
      "at $.people[0].text: reject, answer and intervene need a text",
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

  it.each([
    [
      { version: 2 },
      "x.json is a replay file of format version 2, newer than this cfa: this cfa reads replay files of format version 1 (what `cfa run --record` writes). Update cfa to replay it.",
    ],
    [
      { version: 0 },
      "x.json is a replay file of format version 0: this cfa reads replay files of format version 1 (what `cfa run --record` writes). Record the job again with this cfa.",
    ],
    [
      { version: "1" },
      "x.json names no format version (no number at $.version): this cfa reads replay files of format version 1",
    ],
    [
      { recording: { version: 2, instances: {} } },
      "x.json holds a recording of format version 2 (at $.recording.version); this cfa reads recording version 1 only: record the job again with this cfa (`cfa run --record FILE`).",
    ],
    [
      { recording: { version: 1, instances: { "lead@job": [{ nope: 1 }] } } },
      'x.json holds a bad recording: at $.recording.instances["lead@job"][0]',
    ],
    [{ recording: null }, "x.json is not a cfa replay file: at $.recording: no recording."],
  ])("a file %j is refused in one line naming the versions it reads", (over, message) => {
    expect(() => parse(over)).toThrow(CliError);
    expect(() => parse(over)).toThrow(message);
  });

  it("a bad recording inside is refused before the replay builds its folder", async () => {
    const root = tempDir("cfa-replay-version-");
    try {
      const path = join(root, "old.json");
      await writeFile(path, JSON.stringify({ ...base, recording: { version: 2, instances: {} } }));
      const io = captureIo({ cwd: root });
      expect(await main(["replay", path, "--dir", join(root, "out")], io)).toBe(1);
      expect(io.err()).toMatch(/^cfa: \S+old\.json holds a recording of format version 2 .*\n$/);
      expect(existsSync(join(root, "out"))).toBe(false);
    } finally {
      removeDir(root);
    }
  });

  it("says when the text is not JSON", () => {
    expect(() => parseReplayFile("{", "x.json")).toThrow("x.json is not JSON");
  });
});

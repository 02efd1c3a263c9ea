// The audit line's reading of a shell command: the programs it names, past operators,
// assignments and wrappers — a note to the person, never a refusal.

import { describe, expect, it } from "vitest";
import { namedPrograms } from "../../../../src/agents/shell/named-programs.js";

describe("namedPrograms", () => {
  it.each([
    ["npm test", ["npm"]],
    ["cd pkg && npm test 2>&1 | tail -40", ["npm", "tail"]],
    ["PYTHONPATH=src .venv/bin/python -m unittest", ["python"]],
    ["./gradlew test; ./scripts/test.sh", ["gradlew", "test.sh"]],
    ["env CI=1 time nice node_modules/.bin/vitest run", ["vitest"]],
    ['echo "$(git rev-parse HEAD)" && export X=1', ["git"]],
    ["if [ -f a ]; then curl -s x; fi", ["curl"]],
    ["sudo rm -rf / || true", ["rm"]],
  ])("%s → %j", (command, programs) => {
    expect(namedPrograms(command)).toEqual(programs);
  });
});

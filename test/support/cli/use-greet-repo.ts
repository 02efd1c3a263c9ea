// The repository a file of `cfa` end-to-end tests runs its commands in (a README to greet),
// made before the file's tests and removed after them; `workRoot()` is where `cfa` keeps the
// job areas: beside the repository, never inside it.

import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { makeTempRepo, type TempRepo } from "../git/temp-repo.js";

export function useGreetRepo() {
  let made: TempRepo | undefined;
  beforeAll(() => {
    made = makeTempRepo({
      prefix: "cfa-cli-test-",
      files: { "README.md": "# greet\n\nA greeting.\n" },
    });
  });
  afterAll(async () => made?.cleanup());
  const local = (): TempRepo => {
    if (made === undefined) throw new Error("useGreetRepo: the repository is made in beforeAll");
    return made;
  };
  return { local, workRoot: () => join(local().root, "work") };
}

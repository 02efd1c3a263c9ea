// Everything `cfa` prints passes the redactor: keys from its environment and token shapes.

import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { REDACTED } from "../../../src/secrets/index.js";
import { captureIo } from "../../support/cli/capture-io.js";

describe("cfa output carries no secret", () => {
  it("a key from the environment echoed in an error is printed redacted", async () => {
    const key = "an-anthropic-key-from-the-environment-9d1";
    const io = captureIo({ env: { PATH: "/usr/bin:/bin", ANTHROPIC_API_KEY: key } });

    expect(await main([key], io)).toBe(2);

    expect(io.err()).toContain(`unknown command "${REDACTED}"`);
    expect(io.err()).not.toContain(key);
  });

  it("a token shape nobody registered is printed redacted too", async () => {
    const io = captureIo();
    await main(["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"], io);
    expect(io.err()).toContain(`"${REDACTED}"`);
  });
});

// Everything `cfa` prints passes the process's redactor (docs/contributing.md, "Conventions"):
// a record, a live-log line or an error message never shows a key on a terminal or in a
// CI log.

import type { Redactor } from "../secrets/index.js";
import type { CliIo, CliOutput } from "./cli-io.js";

export function redactingIo(io: CliIo, redactor: Redactor): CliIo {
  return { ...io, stdout: redacting(io.stdout, redactor), stderr: redacting(io.stderr, redactor) };
}

function redacting(output: CliOutput, redactor: Redactor): CliOutput {
  return {
    write: (text: string) => output.write(redactor.redact(text, "the terminal")),
    ...(output.isTTY === undefined ? {} : { isTTY: output.isTTY }),
  };
}

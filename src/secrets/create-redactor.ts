// For adapters that hold credentials of their own (the GitHub forge's and the worker
// client's tokens, some minted while the process runs): the secrets join the process's
// redactor, so they are cut from everything the process writes, and the adapter gets that
// redactor as a function. A function of secrets is read at every call.

import { processRedactor } from "./process-redactor.js";
import type { Redact } from "./redactor.js";

type Secrets = readonly (string | undefined)[];

export function createRedactor(secrets: Secrets | (() => Secrets)): Redact {
  const redactor = processRedactor();
  if (typeof secrets !== "function") {
    for (const secret of secrets) redactor.add(secret);
    return redactor.fn;
  }
  return (text) => {
    for (const secret of secrets()) redactor.add(secret);
    return redactor.redact(text);
  };
}

// A JSON value rebuilt with its keys in canonical (sorted) order, so a tool input that came
// back from the API, from memory or from a transcript serialises to the same request bytes.

import { canonicalLine } from "../../protocol/canonical-json.js";

export function canonicalValue<T>(value: T): T {
  if (value === undefined) return value;
  return JSON.parse(canonicalLine(value)) as T;
}

// Turns zod issues into messages a repository owner can act on: the field as a dotted
// path, what was expected, and (for non-secret input) what was found.

import * as z from "zod";
import { formatPath, type ConfigIssue } from "./config-issue.js";
import { closest } from "./edit-distance.js";

export interface DescribeOptions {
  /** The schema the input was checked against: lists the keys an unknown key could mean. */
  schema: z.ZodType;
  /** Names the whole input in a message about its root ("" path). */
  source: string;
  /** False for secrets: a message then never contains the value found. */
  echo: boolean;
}

export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  options: DescribeOptions,
): ConfigIssue[] {
  return issues.flatMap((issue) => describeIssue(issue, input, options));
}

function describeIssue(
  issue: z.core.$ZodIssue,
  input: unknown,
  options: DescribeOptions,
): ConfigIssue[] {
  const at = (path: readonly PropertyKey[], detail: string): ConfigIssue => {
    const name = formatPath(path);
    return { path: name, message: `${name === "" ? options.source : name}: ${detail}` };
  };
  const value = valueAt(input, issue.path);
  const got = options.echo ? `, got ${show(value)}` : "";
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return [at(issue.path, "is required")];
      return [at(issue.path, `expected ${noun(issue.expected)}${got}`)];
    case "invalid_value":
      return [at(issue.path, `expected one of ${issue.values.map(String).join(", ")}${got}`)];
    case "too_small": {
      const detail = bound(issue.origin, ">", issue.minimum, issue.inclusive);
      return [at(issue.path, value === "" ? detail : `${detail}${got}`)];
    }
    case "too_big":
      return [at(issue.path, `${bound(issue.origin, "<", issue.maximum, issue.inclusive)}${got}`)];
    case "unrecognized_keys": {
      const known = keysAt(options.schema, issue.path);
      return issue.keys.map((key) => {
        const guess = closest(key, known);
        const hint = guess === undefined ? "" : `; did you mean "${guess}"?`;
        const list = known.length > 0 ? ` (known keys: ${known.join(", ")})` : "";
        return at([...issue.path, key], `unknown key${hint}${list}`);
      });
    }
    case "invalid_union": {
      // A setting with several shapes (`sandbox: off` or a mapping; `network: false` or a
      // list): when the value has the shape of exactly one of them, say what is wrong
      // within that one, at its own path.
      const atRoot = (branch: readonly z.core.$ZodIssue[], wrongType: boolean) =>
        branch.some(
          (inner) => inner.path.length === 0 && (!wrongType || inner.code === "invalid_type"),
        );
      let fitting = issue.errors.filter((branch) => !atRoot(branch, false));
      if (fitting.length !== 1) fitting = issue.errors.filter((branch) => !atRoot(branch, true));
      const [only] = fitting;
      if (fitting.length === 1 && only !== undefined && only.length > 0) {
        const nested = only.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
        return describeIssues(nested as z.core.$ZodIssue[], input, options);
      }
      return [at(issue.path, `${issue.message}${got}`)];
    }
    case "invalid_format":
    case "not_multiple_of":
    case "invalid_key":
    case "invalid_element":
      // Our schemas give these their own wording; zod's is the fallback.
      return [at(issue.path, `${issue.message}${got}`)];
    case "custom":
      // A refinement's message says all it means to, quoting the value only if it may.
      return [at(issue.path, issue.message)];
    default: {
      const never: never = issue;
      return [at([], `unexpected validation issue ${JSON.stringify(never)}`)];
    }
  }
}

const NOUNS: Record<string, string> = {
  int: "a whole number",
  number: "a number",
  string: "a string",
  boolean: "true or false",
  array: "a list",
  object: "a mapping",
};
const noun = (expected: string) => NOUNS[expected] ?? expected;

function bound(origin: string, side: "<" | ">", limit: number | bigint, inclusive = false) {
  const n = Number(limit);
  if (origin === "string") {
    if (side === ">" && n <= 1 && inclusive) return "must not be empty";
    return `expected ${side === ">" ? "at least" : "at most"} ${n} characters`;
  }
  if (origin === "array") return `expected ${side === ">" ? "at least" : "at most"} ${n} items`;
  return `expected a number ${side}${inclusive ? "=" : ""} ${n}`;
}

/** The value at `path` in the raw input, if there is one. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let here: unknown = input;
  for (const key of path) {
    if (here === null || typeof here !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(here, key)) return undefined;
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return here;
}

const SHOWN_CHARS = 40;

/** A short, single-line rendering of a value found in the input. */
function show(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (value !== null && typeof value === "object") return "a mapping";
  if (typeof value === "string") {
    return value.length > SHOWN_CHARS
      ? `${JSON.stringify(value.slice(0, SHOWN_CHARS))}…`
      : JSON.stringify(value);
  }
  return String(value);
}

/** The keys the schema knows at `path` (an object's shape), or none. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let here: z.ZodType | undefined = unwrap(schema);
  for (const key of path) {
    if (here instanceof z.ZodUnion) here = objectOption(here);
    if (here instanceof z.ZodObject)
      here = unwrap(here.shape[String(key)] as z.ZodType | undefined);
    else if (here instanceof z.ZodArray) here = unwrap(here.element as z.ZodType);
    else return [];
  }
  if (here instanceof z.ZodUnion) here = objectOption(here);
  return here instanceof z.ZodObject ? Object.keys(here.shape) : [];
}

/** The mapping shape among a union's options (`sandbox: off` or `sandbox: { … }`). */
function objectOption(union: z.ZodUnion): z.ZodType | undefined {
  return (union.options as z.ZodType[]).map(unwrap).find((o) => o instanceof z.ZodObject);
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let here = schema;
  while (
    here instanceof z.ZodDefault ||
    here instanceof z.ZodPrefault ||
    here instanceof z.ZodOptional ||
    here instanceof z.ZodNullable ||
    here instanceof z.ZodPipe
  ) {
    // A pipe (a transform, or a preprocess before a schema): its input side has the keys.
    here = (here instanceof z.ZodPipe ? pipeSide(here) : here.unwrap()) as z.ZodType;
  }
  return here;
}

/** The side of a pipe that holds an object's keys: the schema after a preprocess, else the input. */
function pipeSide(pipe: z.ZodPipe): z.ZodType {
  const input = pipe.in as z.ZodType;
  return input instanceof z.ZodTransform ? (pipe.out as z.ZodType) : input;
}

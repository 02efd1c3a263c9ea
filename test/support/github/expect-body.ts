// Partial body matching for nock interceptors. The OpenAPI check proves a body is one
// GitHub accepts; it cannot prove it is the body the app meant to send (many GitHub body
// schemas accept any string, and some accept extra fields), so tests assert the fields
// they care about, either up front:
//
//   nockGitHub().post("/repos/o/r/issues/1/comments", expectBody({ body: /cfa:status/ }))
//
// or afterwards: `expect(recorder.bodies("issues/create-comment")).toMatchObject([...])`.

/** A value to compare with; a RegExp matches strings, a function is a predicate. */
export type BodyPattern =
  | null
  | boolean
  | number
  | string
  | RegExp
  | ((value: unknown) => boolean)
  | readonly BodyPattern[]
  | { readonly [key: string]: BodyPattern | undefined };

// Why the last bodies failed to match: nock only reports "no match", so the mock session
// prints these alongside the unmatched requests.
const mismatches: string[] = [];

function describe(value: unknown): string {
  return value instanceof RegExp ? String(value) : (JSON.stringify(value) ?? String(value));
}

/** The first difference between `actual` and `pattern`, or undefined when it matches. */
export function bodyMismatch(
  actual: unknown,
  pattern: BodyPattern,
  at = "body",
): string | undefined {
  if (pattern instanceof RegExp) {
    return typeof actual === "string" && pattern.test(actual)
      ? undefined
      : `${at} is ${describe(actual)}, expected a string matching ${String(pattern)}`;
  }
  if (typeof pattern === "function") {
    return pattern(actual) ? undefined : `${at} is ${describe(actual)}, rejected by the predicate`;
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(actual) || actual.length !== pattern.length) {
      return `${at} is ${describe(actual)}, expected an array of ${pattern.length}`;
    }
    for (const [index, item] of pattern.entries()) {
      const found = bodyMismatch(actual[index], item, `${at}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (pattern !== null && typeof pattern === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) {
      return `${at} is ${describe(actual)}, expected an object`;
    }
    const record = actual as Record<string, unknown>;
    for (const [key, item] of Object.entries(pattern)) {
      if (item === undefined) {
        if (key in record) return `${at}.${key} is ${describe(record[key])}, expected it absent`;
        continue;
      }
      const found = bodyMismatch(record[key], item, `${at}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return Object.is(actual, pattern)
    ? undefined
    : `${at} is ${describe(actual)}, expected ${describe(pattern)}`;
}

/**
 * A nock request-body matcher: the JSON body must contain `pattern` (objects partially,
 * arrays element by element, `undefined` meaning "absent").
 */
export function expectBody(pattern: BodyPattern): (body: unknown) => boolean {
  return (body) => {
    const found = bodyMismatch(body, pattern);
    if (found !== undefined) mismatches.push(found);
    return found === undefined;
  };
}

export function takeBodyMismatches(): string[] {
  return mismatches.splice(0, mismatches.length);
}

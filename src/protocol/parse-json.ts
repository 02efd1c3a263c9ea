// JSON text that arrives from outside (a record file, an agent's outcome record) parsed
// without a throw: each caller says in its own words what a text that is not JSON means.

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: unknown };

export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error };
  }
}

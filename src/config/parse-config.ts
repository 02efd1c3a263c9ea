// Reads `.github/cfa.yml` (docs/configuration.md): YAML, then the schema. Every
// problem comes back as a value naming the field, so the bot can post them on the issue
// and not start the job.

import { LineCounter, parseDocument, type YAMLError } from "yaml";
import { CONFIG_PATH, CfaConfigSchema, type CfaConfig } from "./config-schema.js";
import type { ConfigIssue } from "./config-issue.js";
import { defaultConfig } from "./default-config.js";
import { describeIssues } from "./describe-issues.js";

export type ConfigParse = { ok: true; config: CfaConfig } | { ok: false; errors: ConfigIssue[] };

/** Enough to show that the file is broken without a screenful of knock-on errors. */
const MAX_YAML_ERRORS = 5;
/** Refuses alias bombs ("billion laughs") in an untrusted file. */
const MAX_ALIAS_COUNT = 100;

/**
 * @param yamlText the file's text, or null when the repository has none (all defaults).
 * @param source the file's path, used in messages about the file as a whole.
 */
export function parseConfig(yamlText: string | null, source: string = CONFIG_PATH): ConfigParse {
  if (yamlText === null) return { ok: true, config: defaultConfig() };
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return { ok: false, errors: yamlErrors(doc.errors, lineCounter, source) };
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, errors: [{ path: "", message: `${source}: ${why}` }] };
  }
  // An empty file, or a key with nothing after the colon, means "use the default".
  const input = withoutNulls(raw ?? {});
  const parsed = CfaConfigSchema.safeParse(input);
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    errors: describeIssues(parsed.error.issues, input, {
      schema: CfaConfigSchema,
      source,
      echo: true,
    }),
  };
}

function yamlErrors(errors: readonly YAMLError[], lines: LineCounter, source: string) {
  const seen = new Set<number>();
  const out: ConfigIssue[] = [];
  for (const error of errors) {
    const { line, col } = lines.linePos(error.pos[0]);
    // Later errors on a line are usually knock-on effects of the first.
    if (seen.has(line)) continue;
    seen.add(line);
    const what =
      error.code === "MULTIPLE_DOCS"
        ? "expected one YAML document, found several (remove the --- separator)"
        : (error.message.split("\n")[0] ?? error.code);
    out.push({ path: "", message: `${source}: line ${line}, column ${col}: ${what}` });
    if (out.length === MAX_YAML_ERRORS) break;
  }
  return out;
}

/** Mapping entries whose value is null are dropped, at every depth; lists are kept as is. */
function withoutNulls(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, inner]) => inner !== null)
      .map(([key, inner]) => [key, withoutNulls(inner)]),
  );
}

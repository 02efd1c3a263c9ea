// The configuration as the worker reads it (the file's text, Forge.readConfig), in the
// app's terms: the parsed config, or its problems and the label it most likely means.

import { parse } from "yaml";
import { parseConfig } from "../config/index.js";
import { labelHint, type AppConfigLoad } from "./app-config.js";

export function configFromText(text: string | null): AppConfigLoad {
  const parsed = parseConfig(text);
  if (parsed.ok) return { ok: true, config: parsed.config };
  let raw: unknown = null;
  try {
    raw = parse(text ?? "", { maxAliasCount: 100 });
  } catch {
    // Not YAML at all: the default label is the best guess.
  }
  return { ok: false, errors: parsed.errors, label: labelHint(raw) };
}

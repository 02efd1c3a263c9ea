// A role file is Markdown with YAML front matter: the front matter is the role's tool
// surface (docs/protocol.md#workspaces), the body its system prompt. Pure: the caller reads the
// file.

import { parse as parseYaml } from "yaml";
import { describeIssues } from "../tools/describe-issues.js";
import type { RoleDefinition } from "../turn-contract.js";
import { RoleError } from "./role-error.js";
import { RoleFrontMatterSchema } from "./role-front-matter.js";
import { UNNAMED_TOOL_SET, type ToolSetName } from "../../records/tool-sets.js";

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The role with the tools of `toolSet` (default: the unnamed set, `classic`). */
export function parseRole(
  text: string,
  file: string,
  toolSet: ToolSetName = UNNAMED_TOOL_SET,
): RoleDefinition {
  const source = text.replace(/^\uFEFF/, "");
  const match = FRONT_MATTER.exec(source);
  if (!match) {
    throw new RoleError(
      file,
      "has no YAML front matter (a first line `---`, then a closing `---`)",
    );
  }
  let raw: unknown;
  try {
    raw = parseYaml(match[1] ?? "");
  } catch (error) {
    throw new RoleError(file, `front matter is not valid YAML: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const parsed = RoleFrontMatterSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    throw new RoleError(file, `invalid front matter: ${describeIssues(parsed.error.issues)}`);
  }
  const prompt = source.slice(match[0].length).trim();
  if (prompt === "") throw new RoleError(file, "has no system prompt after the front matter");
  const { role, tier, tools, toolSets, commands, network } = parsed.data;
  const chosen = toolSet === "classic" ? tools : (toolSets[toolSet] ?? []);
  return { name: role, tier, toolSet, tools: chosen, commands, network, prompt };
}

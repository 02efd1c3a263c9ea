// Loads a role from `prompts/roles/<name>.md`, shipped beside the code.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promptPath } from "../../skills/package-root.js";
import { parseRole } from "./parse-role.js";
import { RoleError } from "./role-error.js";
import { ROLE_NAMES, isRoleName, type RoleName } from "./role-names.js";
import type { RoleDefinition } from "../turn-contract.js";
import { UNNAMED_TOOL_SET, type ToolSetName } from "../../records/tool-sets.js";

export interface LoadRoleOptions {
  /** The folder holding `<name>.md`; defaults to the package's `prompts/roles`. */
  dir?: string;
  /** Whose tools the role gets; default the unnamed set (tool-sets.ts). */
  toolSet?: ToolSetName;
}

export function loadRole(name: RoleName, options: LoadRoleOptions = {}): RoleDefinition {
  const file = join(options.dir ?? promptPath("roles"), `${name}.md`);
  if (!isRoleName(name)) {
    throw new RoleError(file, `"${String(name)}" is not a role (roles: ${ROLE_NAMES.join(", ")})`);
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new RoleError(file, `cannot read the role file: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const role = parsedRole(text, file, options.toolSet ?? UNNAMED_TOOL_SET);
  // The file name is how the engine asks for a role; a mismatch would spark the wrong one.
  if (role.name !== name) {
    throw new RoleError(file, `front matter says role "${role.name}" but the file is ${name}.md`);
  }
  return role;
}

/**
 * The last parse of each role file, kept while its text is unchanged: a role is loaded at
 * every turn, and parsing its front matter again was ~40 ms of the demo's main thread
 * (--cpu-prof). The file is still read each time, so an edited role is parsed
 * again; each caller gets its own copy.
 */
const parsed = new Map<string, { text: string; role: RoleDefinition }>();

function parsedRole(text: string, file: string, toolSet: ToolSetName): RoleDefinition {
  const key = `${toolSet}\0${file}`;
  const known = parsed.get(key);
  if (known?.text === text) return structuredClone(known.role);
  const role = parseRole(text, file, toolSet);
  parsed.set(key, { text, role: structuredClone(role) });
  return role;
}

// The schema of a role file's front matter. Strict: a misspelt key (`tool:`) would
// otherwise silently give a role no tools.

import * as z from "zod";
import { MODEL_TIERS } from "../../config/model-tiers.js";
import { TOOL_NAMES, isToolName, type ToolName } from "../tools/tool-names.js";
import { ROLE_NAMES } from "./role-names.js";

/** A program name as the command policy matches it: bare, no path, no `..`. */
export const CommandNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_+-][A-Za-z0-9._+-]*$/, "must be a bare program name (no path)");

const ToolListSchema = z.array(z.string()).transform((tools, ctx): ToolName[] => {
  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    if (!isToolName(tool)) {
      ctx.addIssue({
        code: "custom",
        path: [index],
        message: `unknown tool "${tool}" (known tools: ${TOOL_NAMES.join(", ")})`,
      });
    } else if (seen.has(tool)) {
      ctx.addIssue({ code: "custom", path: [index], message: `tool "${tool}" is listed twice` });
    }
    seen.add(tool);
  });
  return tools.filter(isToolName);
});

export const RoleFrontMatterSchema = z.strictObject({
  role: z.enum(ROLE_NAMES),
  tier: z.enum(MODEL_TIERS),
  /** The `classic` set's tools (src/agents/tools/tool-sets.ts): what an unnamed set means. */
  tools: ToolListSchema,
  /** The role's tools in each other set; a set not listed gives the role no tools. */
  toolSets: z.strictObject({ "bash-editor": ToolListSchema.optional() }).default(() => ({})),
  commands: z.array(CommandNameSchema).default([]),
  network: z.boolean().default(false),
});
export type RoleFrontMatter = z.infer<typeof RoleFrontMatterSchema>;

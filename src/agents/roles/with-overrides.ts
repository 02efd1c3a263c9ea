// `.github/cfa.yml` may change a role's commands and network access; its tools and prompt
// stay as shipped (docs/protocol.md#workspaces: the tool surface is the role's, whatever the
// thread).

import * as z from "zod";
import type { NetworkSetting } from "../../config/network-setting.js";
import type { RoleDefinition } from "../turn-contract.js";
import { describeIssues } from "../tools/describe-issues.js";
import { RoleError } from "./role-error.js";
import { CommandNameSchema } from "./role-front-matter.js";

export interface RoleOverrides {
  commands?: readonly string[];
  network?: NetworkSetting;
}

const OverridesSchema = z.strictObject({
  commands: z.array(CommandNameSchema).optional(),
  // Validated in full where the config is read (src/config/network-setting.ts).
  network: z.union([z.boolean(), z.array(z.string()).min(1)]).optional(),
});

export function withOverrides(role: RoleDefinition, overrides: RoleOverrides): RoleDefinition {
  const parsed = OverridesSchema.safeParse(overrides);
  if (!parsed.success) {
    throw new RoleError(
      `overrides for ${role.name}`,
      `invalid: ${describeIssues(parsed.error.issues)}`,
    );
  }
  return {
    ...role,
    tools: [...role.tools],
    commands: [...(parsed.data.commands ?? role.commands)],
    network: parsed.data.network ?? role.network,
  };
}

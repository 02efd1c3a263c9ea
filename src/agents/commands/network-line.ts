// What a role's commands may reach, in a sentence for the agent (run_command's description,
// the bash tool's workspace note): nothing, everything, or the hosts of its `network:` list.

import type { RoleDefinition } from "../turn-contract.js";

export function networkLine(network: RoleDefinition["network"]): string {
  if (network === true) return "";
  if (network === false) return " There is no network access.";
  // The proxy's variables are set in the command's environment; tools that honour them
  // (npm, pip, go, cargo, curl, git over https) reach these and nothing else.
  return ` Network: only ${network.join(", ")}, through the proxy that HTTP_PROXY and HTTPS_PROXY name; anything else is refused and reported.`;
}

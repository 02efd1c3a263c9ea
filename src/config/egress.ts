// What a role's `network:` setting lets a command reach, as the Sandbox port takes it:
// nothing, everything, or host patterns (ecosystem names expanded to their hosts).

import type { NetworkAccess } from "../ports/sandbox.js";
import { ECOSYSTEM_HOSTS, isEcosystem } from "./ecosystems.js";
import type { NetworkSetting } from "./network-setting.js";

export function egressFor(setting: NetworkSetting | undefined): NetworkAccess {
  if (setting === undefined || setting === false) return false;
  if (setting === true) return true;
  const hosts = new Set<string>();
  for (const entry of setting) {
    const name = entry.trim().toLowerCase();
    if (isEcosystem(name)) for (const host of ECOSYSTEM_HOSTS[name]) hosts.add(host);
    else hosts.add(name);
  }
  return { hosts: [...hosts].sort() };
}

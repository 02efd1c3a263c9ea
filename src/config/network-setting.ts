// A role's `network:` in .github/cfa.yml: `false` (no
// network, the default), `true` (the whole network, unfiltered), or a list of ecosystem
// names (ecosystems.ts) and host names that the sandbox's egress proxy lets through.
//
// Host entries: `registry.example.com` (that name, ports 80 and 443), `*.example.com` (any
// subdomain, not the name itself), either with `:port` for one other port. IPv4 literals
// are host names here; IPv6 literals are not supported. The host's own loopback and
// link-local space is never an entry: the proxy refuses it whatever the list says
// (src/adapters/egress/denied-address.ts), so a list naming it is a mistake said at once.

import * as z from "zod";
import { closest } from "./edit-distance.js";
import { ECOSYSTEMS, isEcosystem } from "./ecosystems.js";

export type NetworkSetting = boolean | readonly string[];

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
/** A name of two labels or more, an optional `*.` before it, an optional port after it. */
const HOST_ENTRY = new RegExp(`^(?:\\*\\.)?${LABEL}(?:\\.${LABEL})+(?::(\\d{1,5}))?$`);

/** Names and literals that always mean this machine, or the cloud's metadata service. */
const LOCAL = [
  /^(?:\*\.)?localhost(?::\d+)?$/,
  /^(?:\*\.)?[a-z0-9.-]*\.localhost(?::\d+)?$/,
  /^127\.\d+\.\d+\.\d+(?::\d+)?$/,
  /^0\.\d+\.\d+\.\d+(?::\d+)?$/,
  /^169\.254\.\d+\.\d+(?::\d+)?$/,
];

/** Why `entry` is not a valid list entry, or null when it is one. */
export function networkEntryProblem(entry: string): string | null {
  if (isEcosystem(entry)) return null;
  if (LOCAL.some((re) => re.test(entry))) {
    return `${JSON.stringify(entry)} is this machine (loopback or link-local): commands never reach the runner's own services`;
  }
  const match = HOST_ENTRY.exec(entry);
  if (match === null) {
    if (!entry.includes(".")) {
      const guess = closest(entry, ECOSYSTEMS, 3);
      const hint = guess === undefined ? "" : `; did you mean "${guess}"?`;
      return `${JSON.stringify(entry)} is neither an ecosystem (${ECOSYSTEMS.join(", ")}) nor a host name${hint}`;
    }
    return `${JSON.stringify(entry)} is not a host name such as registry.example.com, *.example.com or mirror.example.com:8443`;
  }
  const port = match[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) {
    return `${JSON.stringify(entry)} has a port outside 1-65535`;
  }
  return null;
}

const NetworkEntrySchema = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine((entry, ctx) => {
    const problem = networkEntryProblem(entry);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  });

export const NetworkSettingSchema = z.union(
  [
    z.boolean(),
    z.array(NetworkEntrySchema).refine((list) => list.length > 0, {
      error: "an empty list gives no network: write false, or name ecosystems or hosts",
    }),
  ],
  { error: "expected true, false, or a list of ecosystems and host names" },
);

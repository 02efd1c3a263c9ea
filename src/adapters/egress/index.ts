export {
  AddressRefusedError,
  DEFAULT_EGRESS_LIMITS,
  pendingFor,
  type EgressLimits,
  resolveByDns,
  startEgressProxy,
  type EgressProxy,
  type EgressProxyOptions,
  type ResolveUpstream,
  type Upstream,
} from "./egress-proxy.js";
export {
  BRIDGE_SCRIPT,
  EGRESS_BRIDGE,
  EGRESS_DIR,
  EGRESS_NODE,
  EGRESS_PORT,
  EGRESS_SOCKET,
  proxyEnv,
} from "./bridge-script.js";
export { deniedAddressReason } from "./denied-address.js";
export { canonicalHost, hostMatcher } from "./host-pattern.js";
export {
  connectionBudget,
  openFilesLimit,
  processConnectionBudget,
  type ConnectionBudget,
} from "./connection-budget.js";
export { namedTarget, recordedHost, type NamedTarget } from "./named-target.js";
export { OTHER_HOSTS, RefusalLog } from "./refusal-log.js";

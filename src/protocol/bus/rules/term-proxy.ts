// cfa-bot's own withdrawal rule (docs/protocol.md#withdrawal), [term-proxy]:
//   Terminate(escalation:<id>) ‖ Proxy(id, …) → Terminate(escalation:<id>)
//   Terminate(escalation:<id>) ‖ AskHuman(id, …) → Terminate(escalation:<id>)
// [ask] links escalation:<id> under the caller's thread, so a withdraw cascade reaches a
// pending escalation; this consumes it, and the engine retracts the question it posted.

import { escalationsOn } from "./tagged.js";
import { terminateRule } from "./skeletons.js";

export const termProxyRule = terminateRule("term-proxy", escalationsOn, (store, m, _term, out) => {
  store.removeEscalation(m);
  out.events.push({ type: "term-proxy", id: m.id });
  out.effects.push({ kind: "cancelled", id: m.id, caller: m.caller });
});

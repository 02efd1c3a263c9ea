// The rule table: every rule, by name, exactly once.

import type { RuleName } from "../redex.js";
import type { Rule } from "./rule.js";
import { askRule } from "./ask.js";
import { askStepRule } from "./ask-step.js";
import { cascadeRule } from "./cascade.js";
import { escalateRule } from "./escalate.js";
import { humanReplyRule } from "./human-reply.js";
import { interruptRule } from "./interrupt.js";
import { nosendStepRule } from "./nosend-step.js";
import { respondRule } from "./respond.js";
import { sendRule } from "./send.js";
import { sendEmptyRule } from "./send-empty.js";
import { sendRefuseRule } from "./send-refuse.js";
import { sendStepRule } from "./send-step.js";
import { sendBlockRule } from "./send-block.js";
import { sendTerminateRule } from "./send-terminate.js";
import { sparkRule } from "./spark.js";
import { termAskRule } from "./term-ask.js";
import { termBlockedRule } from "./term-blocked.js";
import { termFinalRule } from "./term-final.js";
import { termIdleRule } from "./term-idle.js";
import { termIntRule } from "./term-int.js";
import { termMboxRule } from "./term-mbox.js";
import { termProxyRule } from "./term-proxy.js";
import { termRunRule } from "./term-run.js";
import { termSendRule } from "./term-send.js";
import { unblockRule } from "./unblock.js";
import { wakeRule } from "./wake.js";
import { wakeIntRule } from "./wake-int.js";

export const RULES: { readonly [R in RuleName]: Rule<R> } = {
  send: sendRule,
  spark: sparkRule,
  "send-terminate": sendTerminateRule,
  "send-empty": sendEmptyRule,
  wake: wakeRule,
  "send-step": sendStepRule,
  "nosend-step": nosendStepRule,
  "ask-step": askStepRule,
  ask: askRule,
  escalate: escalateRule,
  "human-reply": humanReplyRule,
  respond: respondRule,
  interrupt: interruptRule,
  "wake-int": wakeIntRule,
  "term-run": termRunRule,
  "term-idle": termIdleRule,
  "term-mbox": termMboxRule,
  "term-send": termSendRule,
  cascade: cascadeRule,
  "term-final": termFinalRule,
  "send-refuse": sendRefuseRule,
  "term-ask": termAskRule,
  "term-proxy": termProxyRule,
  "term-int": termIntRule,
  "send-block": sendBlockRule,
  unblock: unblockRule,
  "term-blocked": termBlockedRule,
};

export type { Rule, Anchor } from "./rule.js";
export { ANCHORS } from "./rule.js";

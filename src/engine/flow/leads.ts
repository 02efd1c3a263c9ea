// Each live state has one lead instance on the state's thread (one per entry), sparked by the
// orchestrator when the state is entered ([spark]; children enter with what their parent approved).

import { isLiveState, LIVE_STATES } from "../../protocol/fsm.js";
import { PHASES } from "../../skills/phases.js";
import { readText } from "../tree/files.js";
import { asData } from "../../comments/sanitize.js";
import { currentLead } from "../job/instances.js";
import { orchestrate } from "./orchestrator.js";
import { followUpBrief } from "./follow-up-brief.js";
import { progress, type Session, persistRecords } from "../job/session.js";

export async function ensureLead(s: Session): Promise<void> {
  const lead = currentLead(s);
  if (lead === null || !isLiveState(s.job.state)) return;
  if (s.soup.stateOf(lead) !== null || s.soup.isTerminated(lead.thread)) return;
  if (s.soup.parentOf(lead.thread) !== null) return;
  const state = s.job.state;
  const artifact = s.paths.artifact(PHASES[state].artifact);
  // A linked or otherwise refused artifact still exists: the lead aligns (and rewrites) it.
  const exists = await readText(s.jobWs.root, artifact).then(
    (text) => text !== null,
    () => true,
  );
  const inputs = LIVE_STATES.slice(0, LIVE_STATES.indexOf(state)).map(
    (st) => `\`${s.paths.artifact(PHASES[st].artifact)}\` (approved)`,
  );
  const last = s.job.history.at(-1);
  const followUp = await followUpBrief(s);
  const text = [
    `You lead the ${state} phase of job #${s.n}${s.job.entry > 1 ? ` (entry ${s.job.entry})` : ""}.`,
    `The person's request, issue #${s.n} by @${s.issue.author.login}:`,
    asData(`issue #${s.n}`, `${s.issue.title}\n\n${s.issue.body}`),
    ...followUp,
    inputs.length > 0 ? `Inputs: ${inputs.join(", ")}.` : "",
    `Your artifact: \`${artifact}\` — ${exists ? "it exists: ALIGN it with what changed." : "absent: DRAFT it."}`,
    last && last.to === state && (last.action === "REALIGN" || last.action === "REPLAN")
      ? `You re-enter ${state} because ${last.from} backtracked (${last.action}):\n${asData(`${last.action} reason`, last.reason)}`
      : "",
  ]
    .filter((line) => line !== "")
    .join("\n\n");
  await orchestrate(s, { kind: "observe", text: `enter ${state}` }, [
    { kind: "deliver", to: lead, content: { kind: "begin", text } },
  ]);
  progress(s, state, "START", `${lead.agent} sparked on ${lead.thread}`);
  await persistRecords(s, `cfa #${s.n}: ${state} ${lead.agent} sparked`);
}

// The one short comment a person without authority gets when they start a job (README,
// "How a job works": anyone else gets a one-line reply and nothing changes).

import { withHiddenBlock, type HiddenBlock } from "./hidden-block.js";
import { ownMention } from "./own-marks.js";
import type { Permission } from "../ports/forge.js";

export const START_REFUSED_KIND = "start-refused";

export function startRefusalComment(input: {
  job: number;
  login: string;
  permission: Permission;
  /** The delivery that asked, so a redelivery finds this comment and does not repeat it. */
  delivery: string;
}): string {
  return withHiddenBlock(
    `${ownMention(input.login)}: only people with write access to this repository (or listed in \`approvers\` in \`.github/cfa.yml\`) can start a cfa job; you have ${input.permission}. Nothing was started.`,
    { v: 1, job: input.job, kind: START_REFUSED_KIND, delivery: input.delivery },
  );
}

export function isSameStartRefusal(delivery: string) {
  return (block: HiddenBlock): boolean =>
    block.kind === START_REFUSED_KIND && block.delivery === delivery;
}

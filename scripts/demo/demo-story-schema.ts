// The shape of an authored demo story (demo-story.ts): the replay file's request, person,
// files and people, and per instance the answers the model gives, in order.

import type { PersonAction } from "../../src/cli/replay-file.js";

export interface StoryStep {
  /** What the request this answers must show (the recording's own expectation format). */
  expect?: { lastUserIncludes?: string; toolResultFor?: string };
  content: (
    { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown }
  )[];
  stopReason: "end_turn" | "tool_use";
}

export interface DemoStory {
  request: { title: string; body: string };
  person: string;
  files: Record<string, string>;
  people: Omit<PersonAction, "job">[] | PersonAction[];
  instances: Record<string, StoryStep[]>;
}

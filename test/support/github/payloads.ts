// Real webhook payloads: GitHub's own examples from @octokit/webhooks-examples, deep-cloned,
// with an installation added (the examples mostly have none, and Probot needs one to mint
// an installation token) and overrides deep-merged.
//
// Loaded with createRequire: `import ... with { type: "json" }` passes vitest but fails tsc
// under NodeNext (README, "Things that bite"). The example types are older than Probot 14's:
// cast at receive. Note that webhook payloads spell review states in lower case (`approved`,
// `changes_requested`), unlike the REST API (`APPROVED`).

import { createRequire } from "node:module";
import type { WebhookDefinition } from "@octokit/webhooks-examples";

export type ExampleEventName = WebhookDefinition["name"];

export type ExamplePayload<E extends ExampleEventName> =
  WebhookDefinition<E>["examples"][number] & {
    installation: { id: number };
  };

/** Arrays in overrides replace the example's array whole; objects merge key by key. */
export type PayloadOverrides<T> = T extends readonly (infer U)[]
  ? readonly PayloadOverrides<U>[]
  : T extends object
    ? { [K in keyof T]?: PayloadOverrides<T[K]> | null }
    : T;

export interface ExamplePayloadOptions {
  /** Which of several examples for the (event, action) to start from. Default 0. */
  readonly variant?: number;
}

/** The installation id every example payload gets unless overridden. */
export const TEST_INSTALLATION_ID = 4242;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Derived {
  readonly from: string;
  readonly patch: (payload: JsonObject) => void;
}

// (event, action) pairs the package has no example for, built from the nearest real one.
// @octokit/webhooks-examples 7.6.1 has no `issues.closed`; a reopened issue differs from a
// closed one only in the action and the issue's state fields.
const DERIVED: Readonly<Record<string, Derived>> = {
  "issues.closed": {
    from: "reopened",
    patch(payload) {
      const issue = payload["issue"] as JsonObject;
      payload["action"] = "closed";
      issue["state"] = "closed";
      issue["state_reason"] = "completed";
      issue["closed_at"] = issue["updated_at"] ?? null;
    },
  },
};

const require = createRequire(import.meta.url);
let definitions: readonly WebhookDefinition[] | undefined;

function loadDefinitions(): readonly WebhookDefinition[] {
  definitions ??= require("@octokit/webhooks-examples") as WebhookDefinition[];
  return definitions;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function deepMerge(target: JsonObject, overrides: unknown): void {
  if (!isObject(overrides)) return;
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const current = target[key];
    if (isObject(value) && isObject(current)) deepMerge(current, value);
    else target[key] = structuredClone(value) as Json;
  }
}

// Keep `repository.full_name` consistent when a test moves the payload to another repo.
function syncFullName(payload: JsonObject, overrides: unknown): void {
  const repoOverride = isObject(overrides) ? overrides["repository"] : undefined;
  const repository = payload["repository"];
  if (!isObject(repoOverride) || !isObject(repository) || "full_name" in repoOverride) return;
  const owner = repository["owner"];
  if (
    isObject(owner) &&
    typeof owner["login"] === "string" &&
    typeof repository["name"] === "string"
  ) {
    repository["full_name"] = `${owner["login"]}/${repository["name"]}`;
  }
}

function findExample(event: string, action: string, variant: number): JsonObject {
  const definition = loadDefinitions().find((d) => d.name === event);
  if (definition === undefined) {
    throw new Error(
      `cfa/testkit: @octokit/webhooks-examples has no "${event}" event; check the event name`,
    );
  }
  const examples = (definition.examples as unknown as JsonObject[]).filter(
    (e) => e["action"] === action,
  );
  const example = examples[variant];
  if (example !== undefined) return structuredClone(example);
  const derived = DERIVED[`${event}.${action}`];
  if (derived !== undefined && variant === 0) {
    const payload = findExample(event, derived.from, 0);
    derived.patch(payload);
    return payload;
  }
  const have = [
    ...new Set(definition.examples.map((e) => String((e as { action?: unknown }).action))),
  ];
  throw new Error(
    `cfa/testkit: no example payload for ${event}.${action}` +
      (examples.length > 0 ? ` variant ${variant} (there are ${examples.length})` : "") +
      `; @octokit/webhooks-examples has ${event} actions: ${have.join(", ")}. ` +
      "Pick one of those, or add a derivation to DERIVED in test/support/github/payloads.ts.",
  );
}

/** A deep-cloned real payload for `event.action`, with an installation and `overrides`. */
export function examplePayload<E extends ExampleEventName>(
  event: E,
  action: string,
  overrides?: PayloadOverrides<ExamplePayload<E>>,
  options: ExamplePayloadOptions = {},
): ExamplePayload<E> {
  const payload = findExample(event, action, options.variant ?? 0);
  payload["installation"] = { id: TEST_INSTALLATION_ID };
  deepMerge(payload, overrides);
  syncFullName(payload, overrides);
  return payload as unknown as ExamplePayload<E>;
}

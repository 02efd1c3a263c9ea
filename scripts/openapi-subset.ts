// Regenerates test/fixtures/openapi/github-subset.json: the request side (parameters and
// JSON request bodies) of the GitHub REST operations cfa-bot calls, plus every component
// they reference, so tests can validate outgoing requests with ajv without depending on
// @octokit/openapi (it unpacks to 385 MB).
//
//   mkdir -p /tmp/oa && npm pack @octokit/openapi@<latest> --pack-destination /tmp/oa
//   tar -xzf /tmp/oa/octokit-openapi-*.tgz -C /tmp/oa package/generated/api.github.com.json
//   npx tsx scripts/openapi-subset.ts /tmp/oa/package/generated/api.github.com.json
//
// Responses are left out on purpose: they pull in ~100 large schemas (4x the file) and the
// kit validates what the app sends, not what nock replies.

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

// The operations the app and the worker call (brief H6 plus the closely related ones listed
// after the blank line: the sweep, label bootstrap, withdraw's branch cleanup, bot identity).
export const OPERATION_IDS = [
  "issues/get",
  "issues/update",
  "issues/list-comments",
  "issues/create-comment",
  "issues/update-comment",
  "issues/get-comment",
  "issues/add-labels",
  "issues/remove-label",
  "issues/list-events",
  "reactions/create-for-issue-comment",
  "reactions/create-for-issue",
  "reactions/create-for-pull-request-review-comment",
  "pulls/create",
  "pulls/get",
  "pulls/update",
  "pulls/list",
  "pulls/request-reviewers",
  "pulls/list-reviews",
  "pulls/get-review",
  "pulls/list-comments-for-review",
  "pulls/list-review-comments",
  "pulls/create-review-comment",
  "git/get-ref",
  "git/create-ref",
  "git/update-ref",
  "git/delete-ref",
  "repos/get",
  "repos/get-branch",
  "repos/get-content",
  "repos/get-collaborator-permission-level",
  "repos/list-collaborators",
  "checks/create",
  "checks/update",
  "checks/list-for-ref",
  "actions/create-workflow-dispatch",
  "actions/list-workflow-runs",
  "actions/list-workflow-runs-for-repo",
  "actions/cancel-workflow-run",
  "apps/get-repo-installation",
  "apps/create-installation-access-token",

  "issues/list-for-repo",
  "issues/get-label",
  "issues/create-label",
  "pulls/list-requested-reviewers",
  "pulls/remove-requested-reviewers",
  "pulls/create-reply-for-review-comment",
  "git/list-matching-refs",
  "repos/create-or-update-file-contents",
  "actions/get-workflow-run",
  "apps/get-authenticated",
] as const;

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

// GraphQL is not in the REST description. Marking a draft PR ready for review needs it:
// REST `pulls/update` has no `draft` field (checked in @octokit/openapi 23.0.2), so the app
// calls the `markPullRequestReadyForReview` mutation. Only the envelope is checked.
const GRAPHQL_PATH_ITEM: JsonObject = {
  post: {
    operationId: "graphql",
    summary: "GraphQL query or mutation (synthetic: not part of GitHub's REST description)",
    "x-cfa-synthetic": true,
    parameters: [],
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["query"],
            properties: {
              query: { type: "string", minLength: 1 },
              variables: { type: "object" },
              operationName: { type: "string" },
            },
          },
        },
      },
    },
  },
};

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(message: string): never {
  throw new Error(`cfa/openapi-subset: ${message}`);
}

function indexOperations(paths: JsonObject): Map<string, { route: string; method: string }> {
  const index = new Map<string, { route: string; method: string }>();
  for (const [route, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (isObject(op) && typeof op["operationId"] === "string") {
        index.set(op["operationId"], { route, method });
      }
    }
  }
  return index;
}

// Keep what a request validator needs; drop examples (large, and not constraints).
function requestSide(op: JsonObject): JsonObject {
  const out: JsonObject = { operationId: op["operationId"] ?? null };
  if (typeof op["summary"] === "string") out["summary"] = op["summary"];
  const docs = op["externalDocs"];
  if (isObject(docs) && typeof docs["url"] === "string") out["externalDocs"] = { url: docs["url"] };
  out["parameters"] = Array.isArray(op["parameters"]) ? op["parameters"] : [];
  const body = op["requestBody"];
  if (isObject(body) && isObject(body["content"])) {
    const content: JsonObject = {};
    for (const [mediaType, media] of Object.entries(body["content"])) {
      if (isObject(media) && media["schema"] !== undefined) {
        content[mediaType] = { schema: media["schema"] };
      }
    }
    out["requestBody"] = { required: body["required"] === true, content };
  }
  return out;
}

function collectRefs(node: Json, refs: Set<string>): void {
  if (Array.isArray(node)) {
    for (const child of node) collectRefs(child, refs);
  } else if (isObject(node)) {
    for (const [key, child] of Object.entries(node)) {
      if (key === "$ref" && typeof child === "string") refs.add(child);
      else collectRefs(child, refs);
    }
  }
}

// Copies every `#/components/<kind>/<name>` reachable from `roots`, transitively.
function referencedComponents(source: JsonObject, roots: Json): JsonObject {
  const components = isObject(source["components"]) ? source["components"] : {};
  const out: JsonObject = {};
  const seen = new Set<string>();
  const pending = new Set<string>();
  collectRefs(roots, pending);
  while (pending.size > 0) {
    const [ref] = pending;
    if (ref === undefined) break;
    pending.delete(ref);
    if (seen.has(ref)) continue;
    seen.add(ref);
    const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
    if (!match) fail(`unsupported $ref ${ref}: only #/components/<kind>/<name> is handled`);
    const [, kind = "", name = ""] = match;
    const group = components[kind];
    const target = isObject(group) ? group[name] : undefined;
    if (target === undefined) fail(`$ref ${ref} points at nothing in the source description`);
    const bucket = isObject(out[kind]) ? out[kind] : (out[kind] = {});
    bucket[name] = target;
    const nested = new Set<string>();
    collectRefs(target, nested);
    for (const next of nested) if (!seen.has(next)) pending.add(next);
  }
  return out;
}

// ajv rejects `nullable` on a schema without `type` (nine request bodies do
// this). Only a boolean `nullable` is the keyword; a `properties.nullable` entry is a field.
function dropUntypedNullable(node: Json): number {
  let dropped = 0;
  if (Array.isArray(node)) {
    for (const child of node) dropped += dropUntypedNullable(child);
  } else if (isObject(node)) {
    if (typeof node["nullable"] === "boolean" && node["type"] === undefined) {
      delete node["nullable"];
      dropped += 1;
    }
    for (const child of Object.values(node)) dropped += dropUntypedNullable(child);
  }
  return dropped;
}

function collectFormats(node: Json, formats: Set<string>): void {
  if (Array.isArray(node)) {
    for (const child of node) collectFormats(child, formats);
  } else if (isObject(node)) {
    if (typeof node["format"] === "string") formats.add(node["format"]);
    for (const child of Object.values(node)) collectFormats(child, formats);
  }
}

function sortKeys(node: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function buildSubset(source: JsonObject, operationIds: readonly string[]): JsonObject {
  const sourcePaths = isObject(source["paths"]) ? source["paths"] : fail("source has no paths");
  const index = indexOperations(sourcePaths);
  const paths: JsonObject = {};
  for (const id of operationIds) {
    const where = index.get(id) ?? fail(`operation ${id} is not in the source description`);
    const item = sourcePaths[where.route];
    const op = isObject(item) ? item[where.method] : undefined;
    if (!isObject(op)) fail(`operation ${id} could not be read at ${where.route}`);
    const target = isObject(paths[where.route]) ? paths[where.route] : (paths[where.route] = {});
    if (isObject(target)) target[where.method] = requestSide(op);
  }
  paths["/graphql"] = GRAPHQL_PATH_ITEM;
  const sortedPaths = sortKeys(paths);
  const components = referencedComponents(source, sortedPaths);
  const sortedComponents = sortKeys(
    Object.fromEntries(
      Object.entries(components).map(([kind, group]) => [
        kind,
        isObject(group) ? sortKeys(group) : group,
      ]),
    ),
  );
  const sourceInfo = isObject(source["info"]) ? source["info"] : {};
  const subset: JsonObject = {
    openapi: source["openapi"] ?? "3.0.3",
    info: {
      title: "GitHub REST API: the request side of the operations cfa-bot calls",
      version: sourceInfo["version"] ?? "unknown",
      description:
        "Generated by scripts/openapi-subset.ts from @octokit/openapi " +
        `${String(sourceInfo["version"] ?? "?")} generated/api.github.com.json. Do not edit by hand.`,
    },
    servers: [{ url: "https://api.github.com" }],
    paths: JSON.parse(JSON.stringify(sortedPaths)) as Json,
    components: JSON.parse(JSON.stringify(sortedComponents)) as Json,
  };
  const dropped = dropUntypedNullable(subset);
  const formats = new Set<string>();
  collectFormats(subset, formats);
  // Recorded so a regeneration that changes either shows up in review: the validator must
  // register every format listed (ajv-formats lacks `repo.nwo`).
  const info = subset["info"] as JsonObject;
  info["x-cfa-formats"] = [...formats].sort();
  info["x-cfa-untyped-nullable-removed"] = dropped;
  return subset;
}

function main(argv: readonly string[]): void {
  const input = argv[0];
  if (input === undefined) {
    fail("usage: npx tsx scripts/openapi-subset.ts <path to api.github.com.json>");
  }
  const source = JSON.parse(readFileSync(input, "utf8")) as Json;
  if (!isObject(source)) fail(`${input} is not an OpenAPI document`);
  const subset = buildSubset(source, OPERATION_IDS);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const output = path.join(root, "test/fixtures/openapi/github-subset.json");
  const text = `${JSON.stringify(subset, null, 2)}\n`;
  writeFileSync(output, text);
  const operations = OPERATION_IDS.length + 1;
  process.stdout.write(`wrote ${output}: ${operations} operations, ${text.length} bytes\n`);
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  main(process.argv.slice(2));
}

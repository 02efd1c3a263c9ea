// Credentials are configuration, not failure: a wrong key stops the job live, to go on once
// fixed. Through each provider's real SDK over HTTP to a local server that answers 401 or 403
// (the Anthropic API's authentication_error / permission_error,
// https://platform.claude.com/docs/en/api/errors; Bedrock's and Vertex's refusals through the
// same SDK classes), and with no credentials at all (the Bedrock and Vertex SDKs' own wrappers
// of the AWS and Google credential errors): the call fails at once — one request, no patience
// spent — as ModelUnavailableError with reason "credentials", saying what to set, never the
// key. A 500 is still waited out, so the patience is not simply switched off.

import { APIConnectionError } from "@anthropic-ai/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicModel } from "../../../../src/adapters/anthropic/anthropic-model.js";
import { credentialsFault } from "../../../../src/adapters/anthropic/credentials-fault.js";
import { createBedrockModel } from "../../../../src/adapters/bedrock/bedrock-model.js";
import { createVertexModel } from "../../../../src/adapters/vertex/vertex-model.js";
import { isModelUnavailable, type Model, type ModelRequest } from "../../../../src/ports/model.js";
import {
  startFakeMessagesApi,
  type ApiReply,
  type FakeMessagesApi,
} from "../../../support/fake-messages-api/server.js";

const KEY = "sk-ant-api03-mistyped-key-0123456789";
let server: FakeMessagesApi;
let reply: ApiReply;
beforeEach(async () => {
  server = await startFakeMessagesApi(() => reply);
});
afterEach(() => server.close());

const request: ModelRequest = {
  instance: "intent-lead@state:intent:1",
  model: "claude-sonnet-5-5",
  system: "You are the intent lead.",
  tools: [],
  messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
  maxTokens: 1024,
};

// Patience on a clock its own sleep moves: a retried call would show as waits, in no time.
function patience() {
  let now = Date.parse("2026-11-26T10:00:00Z");
  const waits: number[] = [];
  return {
    waits,
    options: {
      patienceMs: 15 * 60_000,
      now: () => now,
      sleep: (ms: number) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
    },
  };
}

async function refusal(model: Model): Promise<Error & { fields?: Record<string, unknown> }> {
  const error = await model.complete(request).then(
    () => null,
    (e: unknown) => e as Error,
  );
  expect(error).not.toBeNull();
  return error!;
}

const providers: {
  name: string;
  make: (p: ReturnType<typeof patience>["options"]) => Model;
  fix: RegExp;
}[] = [
  {
    name: "the Anthropic API",
    make: (p) => createAnthropicModel({ apiKey: KEY, baseURL: server.url, ...p }),
    fix: /set ANTHROPIC_API_KEY to a valid key|use a key whose workspace may use this model/,
  },
  {
    name: "Amazon Bedrock",
    make: (p) =>
      createBedrockModel({
        region: "us-east-1",
        baseURL: server.url,
        credentials: { accessKeyId: "AKIAMISTYPED0000", secretAccessKey: KEY },
        ...p,
      }),
    fix: /set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/,
  },
  {
    name: "Google Vertex AI",
    make: (p) =>
      createVertexModel({
        region: "us-east5",
        project: "my-project-123",
        baseURL: `${server.url}/v1`,
        auth: {
          projectId: null,
          getRequestHeaders: () => Promise.resolve(new Headers({ authorization: `Bearer ${KEY}` })),
        },
        ...p,
      }),
    fix: /GOOGLE_APPLICATION_CREDENTIALS/,
  },
];

describe.each(providers)("$name refusing the credentials", (provider) => {
  it.each([
    { status: 401, type: "authentication_error", said: "invalid x-api-key" },
    { status: 403, type: "permission_error", said: "not allowed to use this model" },
  ])(
    "$status: fails at once, live (ModelUnavailableError, reason credentials), naming the fix, never the key",
    async ({ status, type, said }) => {
      reply = { kind: "error", status, type, message: said };
      const p = patience();
      const error = await refusal(provider.make(p.options));
      expect(isModelUnavailable(error)).toBe(true);
      expect(error.fields?.reason).toBe("credentials");
      expect(error.message).toMatch(new RegExp(`${provider.name}.* refused the (key|credentials)`));
      expect(error.message).toContain(`(${status})`);
      expect(error.message).toMatch(provider.fix);
      expect(error.message).toContain(said);
      expect(`${error.message} ${String(error.fields?.last)}`).not.toContain(KEY);
      expect(server.requests).toHaveLength(1);
      expect(p.waits).toEqual([]);
    },
  );

  it("a 500 is still an outage, waited out (positive control: the patience is on)", async () => {
    reply = { kind: "error", status: 500, type: "api_error", message: "boom" };
    const p = patience();
    const error = await refusal(provider.make({ ...p.options, patienceMs: 30_000 }));
    expect(isModelUnavailable(error)).toBe(true);
    expect(error.fields?.reason).toBeUndefined();
    expect(server.requests.length).toBeGreaterThan(1);
    expect(p.waits.length).toBeGreaterThan(0);
  });
});

describe("no credentials at all", () => {
  /** Vertex over the test server, its Google auth client failing to get a token with `message`. */
  const vertexWhoseTokenFails = (
    message: string,
    options: ReturnType<typeof patience>["options"] & { patienceMs?: number },
  ) =>
    createVertexModel({
      region: "us-east5",
      project: "my-project-123",
      baseURL: `${server.url}/v1`,
      auth: { projectId: null, getRequestHeaders: () => Promise.reject(new Error(message)) },
      ...options,
    });

  it("Vertex: google-auth-library finds none — the SDK's wrapper is credentials, not an outage", async () => {
    const p = patience();
    const model = vertexWhoseTokenFails(
      "Could not load the default credentials. Browse to the authentication guide for more information.",
      p.options,
    );
    const error = await refusal(model);
    expect(error.fields?.reason).toBe("credentials");
    expect(error.message).toContain("Google Vertex AI has no usable credentials");
    expect(server.requests).toHaveLength(0);
    expect(p.waits).toEqual([]);
  });

  it("Vertex: the token endpoint unreachable stays an outage (positive control)", async () => {
    const p = patience();
    const model = vertexWhoseTokenFails("connect ECONNREFUSED 127.0.0.1:1", {
      ...p.options,
      patienceMs: 30_000,
    });
    const error = await refusal(model);
    expect(error.fields?.reason).toBeUndefined();
    expect(p.waits.length).toBeGreaterThan(0);
  });

  it("Bedrock: the AWS chain's CredentialsProviderError, as @anthropic-ai/bedrock-sdk wraps it", () => {
    const cause = Object.assign(new Error("Could not load credentials from any providers"), {
      name: "CredentialsProviderError",
    });
    const wrapped = new APIConnectionError({
      message: "Failed to resolve AWS credentials from the credential provider chain.",
      cause,
    });
    expect(credentialsFault(wrapped)).toEqual({ status: null });
    const network = new APIConnectionError({ message: "Connection error.", cause: new Error("x") });
    expect(credentialsFault(network)).toBeNull();
  });
});

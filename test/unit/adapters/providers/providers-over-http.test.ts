// Claude on Amazon Bedrock and Google Vertex AI through Anthropic's own clients,
// each request sent over HTTP to a local server, so the clients' real wire shape is checked —
// Bedrock's InvokeModel path and SigV4 signature, Vertex's rawPredict path and OAuth bearer
// token, the API version in the body — with no cloud credential leaving the machine (the
// credentials are made up; every base URL is the local server's).

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBedrockModel } from "../../../../src/adapters/bedrock/bedrock-model.js";
import {
  createProviderModel,
  DEFAULT_PROVIDER_SETTINGS,
} from "../../../../src/adapters/providers/provider-model.js";
import { createVertexModel } from "../../../../src/adapters/vertex/vertex-model.js";
import { noopLogger } from "../../../../src/ports/logger.js";
import type { ModelRequest } from "../../../../src/ports/model.js";
import {
  startFakeMessagesApi,
  type ApiRequest,
  type FakeMessagesApi,
} from "../../../support/fake-messages-api/server.js";

let server: FakeMessagesApi;
beforeEach(async () => {
  server = await startFakeMessagesApi(() => ({
    kind: "message",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-5-5",
      content: [{ type: "text", text: "ok" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: {
        input_tokens: 12,
        output_tokens: 3,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      },
    },
  }));
});
afterEach(() => server.close());

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  instance: "worker@dispatch:t1",
  model: "claude-sonnet-5-5",
  system: "You are a worker.",
  tools: [],
  messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
  maxTokens: 1024,
  ...overrides,
});

/** Google's auth client, as the Vertex SDK asks it for headers: a made-up token. */
const auth = {
  projectId: null,
  getRequestHeaders: () =>
    Promise.resolve(new Headers({ authorization: "Bearer ya29.fake-token" })),
};

const only = (): ApiRequest => {
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
};

describe("Amazon Bedrock (@anthropic-ai/bedrock-sdk)", () => {
  it("POSTs the Messages body to /model/{id}/invoke, signed with SigV4, the model in the path", async () => {
    const model = createBedrockModel({
      region: "us-east-1",
      baseURL: server.url,
      credentials: {
        accessKeyId: "AKIAFAKEFAKEFAKE",
        secretAccessKey: "fake/secret/key",
        sessionToken: "fake-session",
      },
    });
    const response = await model.complete(request());
    expect(response.content).toEqual([{ type: "text", text: "ok" }]);
    const sent = only();
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/model/global.anthropic.claude-sonnet-5-5/invoke");
    expect(String(sent.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAFAKEFAKEFAKE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/,
    );
    expect(sent.headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
    expect(sent.headers["x-amz-security-token"]).toBe("fake-session");
    expect(sent.headers["x-api-key"]).toBeUndefined();
    expect(sent.body).not.toHaveProperty("model");
    expect(sent.body).toHaveProperty("anthropic_version");
    expect(sent.body).toMatchObject({ max_tokens: 1024, messages: [{ role: "user" }] });
  });

  it("uses the model id .github/cfa.yml maps a model to, and a Bedrock API key as a bearer token", async () => {
    const model = createBedrockModel({
      region: "eu-central-1",
      baseURL: server.url,
      apiKey: "bedrock-api-key-fake",
      models: { "claude-sonnet-5-5": "eu.anthropic.claude-sonnet-5-5" },
    });
    await model.complete(request());
    const sent = only();
    expect(sent.path).toBe("/model/eu.anthropic.claude-sonnet-5-5/invoke");
    expect(sent.headers.authorization).toBe("Bearer bedrock-api-key-fake");
  });

  it("takes its credentials and region from the environment, as AWS documents them, when provider is bedrock", async () => {
    const model = createProviderModel({
      env: {
        AWS_REGION: "us-west-2",
        AWS_ACCESS_KEY_ID: "AKIAENVENVENVENV",
        AWS_SECRET_ACCESS_KEY: "env/secret",
        ANTHROPIC_BEDROCK_BASE_URL: server.url,
      },
      logger: noopLogger,
    });
    model.configure({ ...DEFAULT_PROVIDER_SETTINGS, provider: "bedrock" });
    await model.complete(request({ model: "claude-opus-5-5" }));
    const sent = only();
    expect(sent.path).toBe("/model/global.anthropic.claude-opus-5-5/invoke");
    expect(String(sent.headers.authorization)).toContain("Credential=AKIAENVENVENVENV/");
    expect(String(sent.headers.authorization)).toContain("/us-west-2/bedrock/aws4_request");
  });

  it("says what is missing without a region", () => {
    expect(() => createBedrockModel({ region: "" })).toThrow(
      /set bedrock\.region in \.github\/cfa\.yml or AWS_REGION/,
    );
  });
});

describe("Google Vertex AI (@anthropic-ai/vertex-sdk)", () => {
  /** A Vertex model of project my-project-123 whose requests reach the local server. */
  const vertexAt = (region: string, models?: Record<string, string>) =>
    createVertexModel({
      region,
      project: "my-project-123",
      baseURL: `${server.url}/v1`,
      auth,
      ...(models === undefined ? {} : { models }),
    });

  it("POSTs the Messages body to …/publishers/anthropic/models/{model}:rawPredict with an OAuth bearer token", async () => {
    const model = vertexAt("us-east5");
    await model.complete(request());
    const sent = only();
    expect(sent.path).toBe(
      "/v1/projects/my-project-123/locations/us-east5/publishers/anthropic/models/claude-sonnet-5-5:rawPredict",
    );
    expect(sent.headers.authorization).toBe("Bearer ya29.fake-token");
    expect(sent.headers["x-api-key"]).toBeUndefined();
    expect(sent.body).not.toHaveProperty("model");
    expect(sent.body).toHaveProperty("anthropic_version");
  });

  it("streams through :streamRawPredict when the output budget needs it", async () => {
    const model = vertexAt("global", { "claude-opus-5-5": "claude-opus-5-5@20260928" });
    const response = await model.complete(request({ model: "claude-opus-5-5", maxTokens: 32_000 }));
    expect(response.content).toEqual([{ type: "text", text: "ok" }]);
    expect(only().path).toBe(
      "/v1/projects/my-project-123/locations/global/publishers/anthropic/models/claude-opus-5-5@20260928:streamRawPredict",
    );
  });

  it("says what is missing without a region", () => {
    expect(() => createVertexModel({ region: "" })).toThrow(
      /set vertex\.region in \.github\/cfa\.yml or CLOUD_ML_REGION/,
    );
  });
});

describe("the Anthropic API, directly or through a gateway", () => {
  it("honours ANTHROPIC_BASE_URL from the environment (the SDK's convention)", async () => {
    const model = createProviderModel({
      env: { ANTHROPIC_API_KEY: "sk-ant-api03-fake", ANTHROPIC_BASE_URL: `${server.url}/gateway` },
      logger: noopLogger,
    });
    await model.complete(request());
    const sent = only();
    expect(sent.path).toBe("/gateway/v1/messages");
    expect(sent.headers.authorization).toBe("Bearer sk-ant-api03-fake");
    expect(sent.body).toHaveProperty("model", "claude-sonnet-5-5");
  });

  it("refuses to start without a key when the provider is the Anthropic API", async () => {
    const model = createProviderModel({ env: {}, logger: noopLogger });
    await expect(model.complete(request())).rejects.toThrow(/no API key: set ANTHROPIC_API_KEY/);
    expect(server.requests).toHaveLength(0);
  });
});

// The bash and text editor tools are Anthropic-defined: the request names their type and the
// model brings the schema. The Messages API (https://platform.claude.com/docs/en/agents-and-tools/tool-use/bash-tool,
// …/text-editor-tool), Bedrock ("Anthropic defined tools",
// https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-tool-use.html)
// and Vertex AI (its API "is nearly identical to the Messages API and supports all the same
// options", https://platform.claude.com/docs/en/build-with-claude/claude-on-vertex-ai) all
// take them in the body's `tools`, which each client sends as built.
describe("Anthropic-defined tools and the repository's instructions, on every provider's wire", () => {
  const withTools = request({
    instructions:
      '# The repository\'s instructions\n<untrusted-data source="AGENTS.md">Run npm test.</untrusted-data>\n',
    tools: [
      { type: "text_editor_20250728", name: "str_replace_based_edit_tool", max_characters: 50_000 },
      { type: "bash_20250124", name: "bash" },
      { name: "reply", description: "Reply to your lead.", input_schema: { type: "object" } },
    ],
  });
  const providers: [string, () => ReturnType<typeof createBedrockModel>][] = [
    [
      "the Anthropic API",
      () => {
        const model = createProviderModel({
          env: { ANTHROPIC_API_KEY: "sk-ant-api03-fake", ANTHROPIC_BASE_URL: server.url },
          logger: noopLogger,
        });
        return model;
      },
    ],
    [
      "Amazon Bedrock",
      () =>
        createBedrockModel({
          region: "us-east-1",
          baseURL: server.url,
          credentials: { accessKeyId: "AKIAFAKEFAKEFAKE", secretAccessKey: "fake/secret/key" },
        }),
    ],
    [
      "Google Vertex AI",
      () =>
        createVertexModel({
          region: "us-east5",
          project: "my-project-123",
          baseURL: `${server.url}/v1`,
          auth,
        }),
    ],
  ];
  it.each(providers)(
    "%s: the tools by their types, the shared prefix marked, the instructions first in system",
    async (_name, make) => {
      await make().complete(withTools);
      const body = only().body as {
        tools: Record<string, unknown>[];
        system: { text: string; cache_control?: unknown }[];
      };
      expect(body.tools).toEqual([
        {
          type: "text_editor_20250728",
          name: "str_replace_based_edit_tool",
          max_characters: 50_000,
        },
        // The last Anthropic-defined tool closes the prefix every role with them shares.
        { type: "bash_20250124", name: "bash", cache_control: { type: "ephemeral" } },
        { name: "reply", description: "Reply to your lead.", input_schema: { type: "object" } },
      ]);
      expect(body.system.map((b) => b.text)).toEqual([withTools.instructions, "You are a worker."]);
      expect(body.system.map((b) => b.cache_control)).toEqual([
        { type: "ephemeral" },
        { type: "ephemeral" },
      ]);
    },
  );
});

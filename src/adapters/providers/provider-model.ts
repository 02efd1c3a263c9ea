// The model the entry points wire: Claude on the provider `.github/cfa.yml`
// names — the Anthropic API (or the gateway ANTHROPIC_BASE_URL names), Amazon Bedrock or
// Google Vertex AI — with the credentials each cloud documents in the environment. The
// repository's configuration is only known once a wake has read it, so the client is built
// when the engine configures it (EngineDeps.configure) or, failing that, at the first call,
// for the Anthropic API. Each provider's SDK is imported only when its client is built: the
// three together are ~250 ms of module loading (the demo and every verb that never
// calls a model paid it at start-up, before their first line).

import type { CfaConfig, Provider } from "../../config/config-schema.js";
import type { Logger } from "../../ports/logger.js";
import type { Model, ModelLimits } from "../../ports/model.js";
import type { PatienceOptions } from "../anthropic/patience.js";
import { contextWindowOf, maxOutputOf } from "../anthropic/prices.js";

export interface ProviderSettings {
  provider: Provider;
  bedrock: { region?: string | undefined; models: Record<string, string> };
  vertex: {
    region?: string | undefined;
    project?: string | undefined;
    models: Record<string, string>;
  };
  patienceMs: number;
}

export function providerSettings(config: CfaConfig): ProviderSettings {
  return {
    provider: config.provider,
    bedrock: config.bedrock,
    vertex: config.vertex,
    patienceMs: config.limits.apiPatienceMinutes * 60_000,
  };
}

export const DEFAULT_PROVIDER_SETTINGS: ProviderSettings = {
  provider: "anthropic",
  bedrock: { models: {} },
  vertex: { models: {} },
  patienceMs: 15 * 60_000,
};

export interface ProviderModel extends Model {
  /** Chooses the provider and its settings; the next call uses them. */
  configure(settings: ProviderSettings): void;
}

/** Secret environment variables a provider's errors must never show. */
export const PROVIDER_SECRETS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
] as const;

export function createProviderModel(options: {
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** Test seams: clock and sleep of the patient retries, the HTTP fetch. */
  patience?: Omit<PatienceOptions, "patienceMs">;
  fetch?: typeof globalThis.fetch;
}): ProviderModel {
  const { env, logger } = options;
  let settings = DEFAULT_PROVIDER_SETTINGS;
  let built: { key: string; model: Promise<Model> } | null = null;

  const model = (): Promise<Model> => {
    const key = JSON.stringify(settings);
    if (built?.key !== key) built = { key, model: build(settings) };
    return built.model;
  };

  async function build(s: ProviderSettings): Promise<Model> {
    const common = {
      ...options.patience,
      patienceMs: s.patienceMs,
      logger,
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    };
    const value = (name: string): string | undefined => {
      const raw = env[name]?.trim();
      return raw === undefined || raw === "" ? undefined : raw;
    };
    switch (s.provider) {
      case "anthropic": {
        const { createAnthropicModel } = await import("../anthropic/anthropic-model.js");
        return createAnthropicModel({
          ...common,
          apiKey: value("ANTHROPIC_API_KEY"),
          authToken: value("ANTHROPIC_AUTH_TOKEN"),
          baseURL: value("ANTHROPIC_BASE_URL"),
        });
      }
      case "bedrock": {
        const { createBedrockModel } = await import("../bedrock/bedrock-model.js");
        const accessKeyId = value("AWS_ACCESS_KEY_ID");
        const secretAccessKey = value("AWS_SECRET_ACCESS_KEY");
        return createBedrockModel({
          ...common,
          region: s.bedrock.region ?? value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "",
          models: s.bedrock.models,
          apiKey: value("AWS_BEARER_TOKEN_BEDROCK"),
          ...(accessKeyId !== undefined && secretAccessKey !== undefined
            ? {
                credentials: {
                  accessKeyId,
                  secretAccessKey,
                  sessionToken: value("AWS_SESSION_TOKEN"),
                },
              }
            : {}),
          baseURL: value("ANTHROPIC_BEDROCK_BASE_URL"),
          secrets: PROVIDER_SECRETS.map(value),
        });
      }
      case "vertex": {
        const { createVertexModel } = await import("../vertex/vertex-model.js");
        return createVertexModel({
          ...common,
          region: s.vertex.region ?? value("CLOUD_ML_REGION") ?? "",
          project:
            s.vertex.project ??
            value("ANTHROPIC_VERTEX_PROJECT_ID") ??
            value("GOOGLE_CLOUD_PROJECT"),
          models: s.vertex.models,
          baseURL: value("ANTHROPIC_VERTEX_BASE_URL"),
        });
      }
      default: {
        const unknown: never = s.provider;
        throw new Error(`cfa/model: unknown provider ${String(unknown)}`);
      }
    }
  }

  return {
    configure(next) {
      settings = next;
    },
    async complete(request, callOptions) {
      return (await model()).complete(request, callOptions);
    },
    limits(name: string): ModelLimits {
      // Limits are the model's, whichever provider serves it.
      return { contextWindow: contextWindowOf(name), maxOutput: maxOutputOf(name) };
    },
  };
}

/** Whether the environment holds credentials for some provider (the CLI's first check). */
export function hasProviderCredentials(env: Readonly<Record<string, string | undefined>>): boolean {
  const set = (name: string) => (env[name]?.trim() ?? "") !== "";
  return (
    set("ANTHROPIC_API_KEY") ||
    set("ANTHROPIC_AUTH_TOKEN") ||
    set("AWS_BEARER_TOKEN_BEDROCK") ||
    (set("AWS_ACCESS_KEY_ID") && set("AWS_SECRET_ACCESS_KEY")) ||
    set("AWS_PROFILE") ||
    set("GOOGLE_APPLICATION_CREDENTIALS")
  );
}

// The Model port on Claude in Google Vertex AI, through Anthropic's own client
// (@anthropic-ai/vertex-sdk 1.1.3, AnthropicVertex): the same Messages body, without `model`
// and with `anthropic_version` in it, POSTed to
// `/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict`
// (streamed: `:streamRawPredict`) with a Google OAuth bearer token (src/client.ts). The token
// comes from Application Default Credentials as Google documents them
// (https://cloud.google.com/docs/authentication/application-default-credentials):
// GOOGLE_APPLICATION_CREDENTIALS, which google-github-actions/auth sets after its Workload
// Identity Federation exchange. Region from `vertex.region` or CLOUD_ML_REGION; project from
// `vertex.project`, ANTHROPIC_VERTEX_PROJECT_ID or the credentials. Model ids are Vertex's:
// by default the Claude id itself (e.g. `claude-sonnet-5-5`), or what `vertex.models` maps.

import { AnthropicVertex } from "@anthropic-ai/vertex-sdk";
import type { Model } from "../../ports/model.js";
import { createMessagesModel, type MessagesClient } from "../anthropic/messages-model.js";
import { redactSecrets } from "../anthropic/model-error.js";
import {
  mappedModelId,
  requireRegion,
  sdkTransport,
  type ProviderModelOptions,
} from "../anthropic/sdk-transport.js";

/** What AnthropicVertex needs of a google-auth-library AuthClient. */
export interface VertexAuth {
  projectId?: string | null;
  getRequestHeaders(): Promise<Headers>;
}

export interface VertexModelOptions extends ProviderModelOptions {
  region: string;
  project?: string | undefined;
  /** Claude model id → Vertex model id; others keep their id. */
  models?: Readonly<Record<string, string>>;
  /** An auth client instead of Application Default Credentials (tests). */
  auth?: VertexAuth;
}

export function createVertexModel(options: VertexModelOptions): Model {
  requireRegion(
    options.region,
    "cfa/vertex: no region: set vertex.region in .github/cfa.yml or CLOUD_ML_REGION",
  );
  // The OAuth token never appears in what we log: it lives in a header the client sets itself.
  const redact = (text: string): string => redactSecrets(text, []);
  const client = new AnthropicVertex({
    region: options.region,
    projectId: options.project ?? null,
    ...(options.auth !== undefined
      ? {
          authClient: options.auth as unknown as NonNullable<
            ConstructorParameters<typeof AnthropicVertex>[0]
          >["authClient"],
        }
      : {}),
    ...sdkTransport(options),
  });
  return createMessagesModel({
    ...options,
    client: client as unknown as MessagesClient,
    provider: "Google Vertex AI",
    redact,
    reachHint: "the network, the Vertex AI region and project, and the Google credentials",
    providerModel: (model) => mappedModelId(model, options.models ?? {}, model),
  });
}

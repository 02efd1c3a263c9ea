// The Model port on Claude in Amazon Bedrock, through Anthropic's own client
// (@anthropic-ai/bedrock-sdk 1.1.2, AnthropicBedrock): the same Messages body, sent to
// bedrock-runtime's InvokeModel path `/model/{modelId}/invoke` (streamed:
// `/invoke-with-response-stream`) with the API version in the body, signed with AWS SigV4
// (src/client.ts). Credentials come from the environment as AWS documents them
// (https://docs.aws.amazon.com/sdkref/latest/guide/environment-variables.html): AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN — what aws-actions/configure-aws-credentials
// exports after its OIDC exchange — or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK; the
// region from `bedrock.region` or AWS_REGION. Model ids are Bedrock's: by default the global
// cross-region inference profile `global.anthropic.<model>` (the SDK README's own example,
// `global.anthropic.claude-sonnet-5-5`), or whatever `bedrock.models` maps a model to.

import { AnthropicBedrock } from "@anthropic-ai/bedrock-sdk";
import type { Model } from "../../ports/model.js";
import { createMessagesModel, type MessagesClient } from "../anthropic/messages-model.js";
import { redactSecrets } from "../anthropic/model-error.js";
import {
  mappedModelId,
  requireRegion,
  sdkTransport,
  type ProviderModelOptions,
} from "../anthropic/sdk-transport.js";

export interface BedrockModelOptions extends ProviderModelOptions {
  region: string;
  /** Claude model id → Bedrock model id; others get `global.anthropic.<id>`. */
  models?: Readonly<Record<string, string>>;
  /** Static credentials (else the AWS default chain reads the environment). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined };
  /** A Bedrock API key (AWS_BEARER_TOKEN_BEDROCK). */
  apiKey?: string | undefined;
  /** Every secret value the process holds for AWS, kept out of errors and logs. */
  secrets?: readonly (string | undefined)[];
}

export function createBedrockModel(options: BedrockModelOptions): Model {
  requireRegion(
    options.region,
    "cfa/bedrock: no AWS region: set bedrock.region in .github/cfa.yml or AWS_REGION",
  );
  const secrets = [
    options.apiKey,
    options.credentials?.secretAccessKey,
    options.credentials?.sessionToken,
    ...(options.secrets ?? []),
  ];
  const redact = (text: string): string => redactSecrets(text, secrets);
  const common = {
    awsRegion: options.region,
    // null, not undefined: a key never comes from a variable the caller did not pass on.
    apiKey: options.apiKey ?? null,
    ...sdkTransport(options),
  };
  const creds = options.credentials;
  const client =
    creds !== undefined
      ? new AnthropicBedrock({
          ...common,
          awsAccessKey: creds.accessKeyId,
          awsSecretKey: creds.secretAccessKey,
          awsSessionToken: creds.sessionToken ?? null,
        })
      : new AnthropicBedrock(common);
  return createMessagesModel({
    ...options,
    client: client as unknown as MessagesClient,
    provider: "Amazon Bedrock",
    redact,
    reachHint: "the network, the AWS region and the AWS credentials",
    providerModel: (model) =>
      mappedModelId(model, options.models ?? {}, `global.anthropic.${model}`),
  });
}

// Credentials are configuration, not failure: a provider that refuses the key
// (or cannot find one) will refuse every retry too, and no turn of the job is to blame. The
// call fails at once — no patience spent — and the engine stops the wake with the job live,
// saying what to fix; the job carries on after `cfa resume` or its next wake.
//
// What each provider answers, as its SDK surfaces it:
// - the Anthropic API: 401 `authentication_error` (the key is malformed, revoked or expired),
//   402 `billing_error`, 403 `permission_error` (the key may not use this resource)
//   (https://platform.claude.com/docs/en/api/errors); the SDK throws AuthenticationError,
//   PermissionDeniedError, or an APIError with that status (@anthropic-ai/sdk core/error).
// - Amazon Bedrock: 403 for an unknown, expired or unauthorised key (UnrecognizedClient,
//   ExpiredToken, AccessDenied), through the same SDK classes; with no credentials at all,
//   @anthropic-ai/bedrock-sdk (core/aws-auth.js) throws APIConnectionError "Failed to resolve
//   AWS credentials from the credential provider chain." whose cause is the AWS SDK's
//   CredentialsProviderError.
// - Google Vertex AI: 401 UNAUTHENTICATED, 403 PERMISSION_DENIED; with no usable credentials,
//   @anthropic-ai/vertex-sdk (client.js) throws APIConnectionError "Failed to acquire Google
//   OAuth credentials." whose cause is google-auth-library's error ("Could not load the
//   default credentials", or the token endpoint's invalid_grant / invalid_client).
// A connection error wrapping anything else (the metadata server or token endpoint
// unreachable) stays an outage, waited out as before.

import { APIConnectionError, APIError } from "@anthropic-ai/sdk";

export interface CredentialsFault {
  /** The provider's HTTP status; null when no request was sent (no credentials found). */
  status: number | null;
}

const CONFIG_STATUSES = new Set([401, 402, 403]);

const GOOGLE_CONFIG =
  /could not load the default credentials|invalid_grant|invalid_client|unauthorized_client|invalid_rapt|the incoming json object does not contain|ENOENT/iu;

export function credentialsFault(error: unknown): CredentialsFault | null {
  if (error instanceof APIError && typeof error.status === "number") {
    return CONFIG_STATUSES.has(error.status) ? { status: error.status } : null;
  }
  if (error instanceof APIConnectionError && error.cause instanceof Error) {
    const cause = error.cause;
    if (cause.name === "CredentialsProviderError") return { status: null };
    if (/Google OAuth credentials/u.test(error.message) && GOOGLE_CONFIG.test(cause.message)) {
      return { status: null };
    }
  }
  return null;
}

/** What to fix, in one sentence, for `provider` ("the Anthropic API", "Amazon Bedrock", …). */
export function credentialsFix(provider: string, status: number | null): string {
  // The Anthropic API (or a gateway) takes a key; the clouds take their own credentials.
  const cloud = provider === "Amazon Bedrock" || provider === "Google Vertex AI";
  const what = cloud ? "the credentials" : "the key";
  const refused =
    status === null
      ? `${provider} has no usable credentials`
      : status === 402
        ? `${provider} refused the request for billing (402)`
        : status === 403
          ? `${provider} refused ${what} for this model or feature (403)`
          : `${provider} refused ${what} (${status})`;
  if (provider === "Amazon Bedrock") {
    return `${refused}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), or AWS_BEARER_TOKEN_BEDROCK, to credentials allowed bedrock:InvokeModel on this model in this region`;
  }
  if (provider === "Google Vertex AI") {
    return `${refused}: point GOOGLE_APPLICATION_CREDENTIALS (or the workload identity) at an account with the Vertex AI User role on the project`;
  }
  if (status === 402) return `${refused}: check the organisation's billing in the Claude Console`;
  if (status === 403) {
    return `${refused}: use a key whose workspace may use this model, or change the model in .github/cfa.yml`;
  }
  return `${refused}: set ANTHROPIC_API_KEY to a valid key (or ANTHROPIC_AUTH_TOKEN for a gateway)`;
}

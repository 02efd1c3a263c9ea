// The GitHub test kit. Typical use in an app test:
//
//   const github = useGitHubMocks();
//   it("...", async () => {
//     const app = await createTestProbot(cfaApp);
//     nockGitHub().post("/repos/Codertocat/Hello-World/issues/1/comments", expectBody({ body: /x/ })).reply(201, {});
//     await app.receive("issues", examplePayload("issues", "opened"));
//     expect(github.operations()).toEqual([...]);
//   });  // afterEach: every mock used, nothing unmatched, every request valid per OpenAPI

export { createCapturingLogger, LOG_LEVELS } from "./capturing-logger.js";
export type { CapturingLogger, LogEntry, LogLevel } from "./capturing-logger.js";
export { bodyMismatch, expectBody } from "./expect-body.js";
export type { BodyPattern } from "./expect-body.js";
export { startGitHubMockSession } from "./github-mock-session.js";
export type { GitHubMockSession } from "./github-mock-session.js";
export { GitHubRequestInvalid } from "./github-request-invalid.js";
export { nockGitHub } from "./nock-github.js";
export { createGitHubValidator, GITHUB_API_ORIGIN } from "./openapi-validator.js";
export type {
  GitHubRequest,
  GitHubValidator,
  GitHubValidatorOptions,
  ValidatedGitHubRequest,
} from "./openapi-validator.js";
export { examplePayload, TEST_INSTALLATION_ID } from "./payloads.js";
export type {
  ExampleEventName,
  ExamplePayload,
  ExamplePayloadOptions,
  PayloadOverrides,
} from "./payloads.js";
export {
  createTestProbot,
  TEST_APP_ID,
  TEST_INSTALLATION_TOKEN,
  TEST_WEBHOOK_SECRET,
} from "./probot-harness.js";
export type { ReceiveOptions, TestProbot, TestProbotOptions } from "./probot-harness.js";
export { recordAndValidate } from "./record-and-validate.js";
export type {
  GitHubCall,
  GitHubRecorder,
  RecordedGitHubRequest,
  RecordOptions,
} from "./record-and-validate.js";
export { TEST_PACING } from "./test-pacing.js";
export { TestProbotOctokit } from "./test-probot-octokit.js";
export { testPrivateKey } from "./test-private-key.js";
export { useGitHubMocks } from "./use-github-mocks.js";
export { refuseWorkflowPushes } from "./workflow-push-hook.js";
export type { GitHubMocks } from "./use-github-mocks.js";

export {
  isSecretVariable,
  looksLikeSecretName,
  looksLikeSecretValue,
  SECRET_NAME,
  TOKEN_SHAPES,
  type TokenShape,
} from "./secret-patterns.js";
export { REDACTED, Redactor, type Redact, type RedactionReport } from "./redactor.js";
export {
  holdsKnownSecret,
  holdsSecret,
  redactKnown,
  processRedactor,
  redact,
  registerEnvSecrets,
  registerSecret,
  reportRedactions,
} from "./process-redactor.js";
export { mapForgeTexts, redactingForge } from "./redacting-forge.js";
export { redactingLogger } from "./redacting-logger.js";
export { createRedactor } from "./create-redactor.js";
export { clip } from "./clip.js";
export { secretForms } from "./secret-forms.js";
export { skeleton, type Skeleton } from "./text-skeleton.js";

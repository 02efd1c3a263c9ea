// The process's one redactor: every entry point (app, worker, cli) registers the secrets it
// holds here, and everything that writes outward (the Forge wrapper, commit messages, the
// loggers, the step summary) redacts through it. Installation tokens minted later register
// themselves with registerSecret when they arrive.

import { isSecretVariable } from "./secret-patterns.js";
import { Redactor, type RedactionReport } from "./redactor.js";

const shared = new Redactor();

/** Values shorter than this in a secret-named variable are not secrets (a flag, a port). */
const MIN_ENV_SECRET_LENGTH = 8;

export function processRedactor(): Redactor {
  return shared;
}

export function registerSecret(value: string | undefined): void {
  shared.add(value);
}

/** Learns the value of every secret-named variable (GITHUB_TOKEN, ANTHROPIC_API_KEY, …). */
export function registerEnvSecrets(env: Readonly<Record<string, string | undefined>>): void {
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= MIN_ENV_SECRET_LENGTH && isSecretVariable(name)) {
      shared.add(value);
    }
  }
}

/** Where the process redactor reports its counts. */
export function reportRedactions(report: RedactionReport | undefined): void {
  shared.reportTo(report);
}

/** Text through the process redactor. */
export function redact(text: string, where?: string): string {
  return shared.redact(text, where);
}

/** Whether `text` holds a secret the process knows, in any form, or a token shape. */
export function holdsSecret(text: string): boolean {
  return shared.holds(text);
}

/** Whether `text` holds a secret the process knows, in any form (shapes aside). */
export function holdsKnownSecret(text: string): boolean {
  return shared.holdsKnown(text);
}

/** Text through the process redactor, known secrets only (Redactor.redactKnown). */
export function redactKnown(text: string, where?: string): string {
  return shared.redactKnown(text, where);
}

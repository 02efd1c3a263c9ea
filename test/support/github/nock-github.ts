// The one way tests mock GitHub: a nock scope on https://api.github.com with real network
// connections refused. Scopes made here are announced to recorders (record-and-validate.ts),
// which is how every intercepted GitHub request gets validated without patching nock.

import nock from "nock";
import { GITHUB_API_ORIGIN } from "./openapi-validator.js";

type ScopeListener = (scope: nock.Scope) => void;

const scopes = new Set<nock.Scope>();
const listeners = new Set<ScopeListener>();

/** A nock scope on https://api.github.com; also calls `nock.disableNetConnect()`. */
export function nockGitHub(options?: nock.Options): nock.Scope {
  nock.disableNetConnect();
  const scope = nock(GITHUB_API_ORIGIN, options);
  scopes.add(scope);
  for (const listener of listeners) listener(scope);
  return scope;
}

/**
 * Calls `listener` for every scope nockGitHub() has made since the last
 * forgetGitHubScopes(), and for every later one. Returns the unsubscribe function.
 */
export function onGitHubScope(listener: ScopeListener): () => void {
  for (const scope of scopes) listener(scope);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Drops the registry of scopes; call after `nock.cleanAll()` (the mock session does). */
export function forgetGitHubScopes(): void {
  scopes.clear();
}

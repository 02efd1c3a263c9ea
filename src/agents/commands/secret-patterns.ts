// What counts as a secret in an environment, by a variable's name or by its value.

export const SECRET_NAME = /TOKEN|SECRET|KEY|PASSWORD|CREDENTIAL|AUTH|PRIVATE|SESSION|COOKIE/i;

/**
 * GitHub tokens (personal `ghp_`, OAuth `gho_`, user-to-server `ghu_`, installation
 * `ghs_`, refresh `ghr_`, fine-grained `github_pat_`), Anthropic keys (`sk-ant-`) and PEM
 * blocks (the App's private key), anywhere in the value: a URL can carry a token inside.
 */
export const SECRET_VALUE = /gh[pousr]_[A-Za-z0-9]|github_pat_|sk-ant-|-----BEGIN/;

export function looksLikeSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function looksLikeSecretValue(value: string): boolean {
  return SECRET_VALUE.test(value);
}

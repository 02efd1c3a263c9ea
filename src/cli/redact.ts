// Never print a secret: whatever an error carries, the values of secret environment
// variables are replaced before it reaches the terminal.

const SECRET_NAMES = /(KEY|TOKEN|SECRET|PASSWORD)/;

export function redactSecrets(text: string, env: Record<string, string | undefined>): string {
  let out = text;
  for (const [name, value] of Object.entries(env)) {
    if (!SECRET_NAMES.test(name) || value === undefined || value.length < 8) continue;
    out = out.split(value).join(`[${name} redacted]`);
  }
  return out;
}

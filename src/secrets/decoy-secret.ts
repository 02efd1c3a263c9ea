// A secret's decoy: the same public parts — the prefix every token of its kind shares
// (`ghs_`, `sk-ant-api03-`, `github_pat_`…, from secret-patterns.ts's shapes), a PEM key's
// BEGIN and END lines — around a different body. A window of a form that the decoy's forms
// hold too says nothing about this secret (any `sk-ant-api03-` key has it), so it is not a
// part worth redacting: the redactor leaves such windows out (redactor.ts).

const PUBLIC_PREFIX =
  /^(?:gh[pousr]_|github_pat_|sk-ant-[a-z]+\d*-|v1\.|xox[abpre]-|glpat-|npm_|pypi-|AKIA|ASIA)/u;

/** `secret` with every letter and digit of its body moved one step on; null if it has no public part. */
export function decoySecret(secret: string): string | null {
  if (secret.includes("-----BEGIN")) {
    return secret
      .split("\n")
      .map((line) => (line.trim().startsWith("-----") ? line : shift(line)))
      .join("\n");
  }
  const prefix = PUBLIC_PREFIX.exec(secret)?.[0];
  return prefix === undefined ? null : prefix + shift(secret.slice(prefix.length));
}

function shift(text: string): string {
  return text.replace(/[0-9a-zA-Z]/gu, (c) => {
    if (c === "9") return "0";
    if (c === "z") return "a";
    if (c === "Z") return "A";
    return String.fromCharCode(c.charCodeAt(0) + 1);
  });
}

// The redactor (DESIGN.md "Trust boundaries": nothing the bot posts or commits leaves
// without it). It knows secret values it is told about and the token shapes of
// ./secret-patterns.ts, and replaces both with `[redacted]`. It reports how many it
// removed, never what: the count is what a log may say.

import { TOKEN_SHAPES } from "./secret-patterns.js";

export const REDACTED = "[redacted]";

export type Redact = (text: string) => string;

/** Told after each call that removed anything: how many, and from what (e.g. "a comment"). */
export type RedactionReport = (count: number, where: string) => void;

/** Shorter values would match ordinary words; nothing we hold is this short. */
const MIN_SECRET_LENGTH = 4;
/** A line of a PEM body: long enough to be key material, not a header. */
const MIN_PEM_LINE = 16;

export class Redactor {
  /** Longest first, so a secret that contains another is replaced whole. */
  private values: string[] = [];
  private report: RedactionReport | undefined;

  constructor(secrets: Iterable<string | undefined> = [], report?: RedactionReport) {
    for (const secret of secrets) this.add(secret);
    this.report = report;
  }

  /** Where counts go from now on (the entry point's log, once it has one). */
  reportTo(report: RedactionReport | undefined): void {
    this.report = report;
  }

  /**
   * Learns a secret value: the value itself, its URL-encoded and JSON-escaped forms (a token
   * inside a URL or a JSON document), and each line of a PEM key's body (part of a key is
   * as bad as all of it).
   */
  add(secret: string | undefined): void {
    if (secret === undefined || secret.trim().length < MIN_SECRET_LENGTH) return;
    const forms = new Set([
      secret,
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
    ]);
    if (secret.includes("-----BEGIN")) {
      for (const line of secret.split(/\r?\n|\\n/)) {
        const body = line.trim();
        if (body.length >= MIN_PEM_LINE && !body.startsWith("-----")) forms.add(body);
      }
    }
    const fresh = [...forms].filter((form) => !this.values.includes(form));
    if (fresh.length === 0) return;
    this.values.push(...fresh);
    this.values.sort((a, b) => b.length - a.length);
  }

  /** How many values are known (the forms of each secret counted separately). */
  get size(): number {
    return this.values.length;
  }

  /** `text` with every known secret and every token shape replaced by `[redacted]`. */
  redact(text: string, where = "text"): string {
    let count = 0;
    let out = text;
    for (const value of this.values) {
      if (!out.includes(value)) continue;
      const parts = out.split(value);
      count += parts.length - 1;
      out = parts.join(REDACTED);
    }
    for (const shape of TOKEN_SHAPES) {
      out = out.replace(shape.pattern, (match: string, ...rest: unknown[]) => {
        // replace() passes the groups, then the offset and the whole text (no named groups).
        const groups = rest.slice(0, -2) as (string | undefined)[];
        const replaced = shape.replace ? shape.replace(REDACTED, match, ...groups) : REDACTED;
        if (replaced !== match) count += 1;
        return replaced;
      });
    }
    if (count > 0) this.report?.(count, where);
    return out;
  }

  /** This redactor as a plain function, for callers that take a `Redact`. */
  readonly fn: Redact = (text) => this.redact(text);
}

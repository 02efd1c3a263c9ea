// The redactor (docs/contributing.md, "Conventions": nothing the bot posts or commits leaves
// without it). It knows secret values it is told about — in every form they take on the
// way out (issue 18 §3: encoded, recased, spaced, split across lines, escaped; see
// ./secret-forms.ts and ./text-skeleton.ts) — and the token shapes of ./secret-patterns.ts,
// and replaces both with `[redacted]`. It reports how many it removed, never what: the
// count is what a log may say. Text is redacted before anything cuts it (./clip.ts): a
// secret cut in half is no longer recognisable, and its first half still leaks.

import { TOKEN_SHAPES, type TokenShape } from "./secret-patterns.js";
import { secretForms } from "./secret-forms.js";
import { skeleton } from "./text-skeleton.js";

export const REDACTED = "[redacted]";

export type Redact = (text: string) => string;

/** Told after each call that removed anything: how many, and from what (e.g. "a comment"). */
export type RedactionReport = (count: number, where: string) => void;

/** Shorter values would match ordinary words; nothing we hold is this short. */
const MIN_SECRET_LENGTH = 4;

export class Redactor {
  /** The secrets as given, for `size` and to learn each once. */
  private readonly secrets = new Set<string>();
  /** Every form of every secret as it appears in a skeleton (./secret-forms.ts). */
  private forms: string[] = [];
  /** Exact values too short for a skeleton form (4–7 characters): matched literally. */
  private literals: string[] = [];
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
   * Learns a secret value, with every form it takes on the way out (./secret-forms.ts):
   * encoded (base64, base64url, hex, URL, JSON), recased, spaced, split or escaped.
   */
  add(secret: string | undefined): void {
    if (secret === undefined || secret.trim().length < MIN_SECRET_LENGTH) return;
    if (this.secrets.has(secret)) return;
    this.secrets.add(secret);
    const forms = secretForms(secret);
    if (forms.length === 0) {
      this.literals.push(secret);
      this.literals.sort((a, b) => b.length - a.length);
      return;
    }
    const known = new Set(this.forms);
    this.forms.push(...forms.filter((form) => !known.has(form)));
  }

  /** How many secrets are known. */
  get size(): number {
    return this.secrets.size;
  }

  /** Whether `text` holds a known secret in any form (token shapes aside). */
  holdsKnown(text: string): boolean {
    return this.spans(text).length > 0;
  }

  /** Whether `text` holds a known secret in any form, or a token shape. */
  holds(text: string): boolean {
    if (this.spans(text).length > 0) return true;
    return TOKEN_SHAPES.some((shape) => this.redactShape(text, shape).count > 0);
  }

  /**
   * The spans of `text` (start, end) that hold a known secret in any form, merged. Matched
   * in the text's skeleton, then mapped back, so a span covers the escapes, spaces and line
   * breaks the secret was spread over.
   */
  private spans(text: string): [number, number][] {
    const found: [number, number][] = [];
    for (const value of this.literals) {
      for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) {
        found.push([at, at + value.length]);
      }
    }
    const skeletons =
      this.forms.length === 0 || text.length === 0
        ? []
        : text.includes("\\")
          ? [skeleton(text), skeleton(text, "drop")]
          : [skeleton(text)];
    for (const skel of skeletons) {
      for (const form of this.forms) {
        for (
          let at = skel.text.indexOf(form);
          at >= 0;
          at = skel.text.indexOf(form, at + form.length)
        ) {
          found.push([skel.from[at] as number, skel.to[at + form.length - 1] as number]);
        }
      }
    }
    if (found.length < 2) return found;
    found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const merged: [number, number][] = [found[0] as [number, number]];
    for (const span of found.slice(1)) {
      const last = merged[merged.length - 1] as [number, number];
      if (span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
      else merged.push(span);
    }
    return merged;
  }

  private redactShape(text: string, shape: TokenShape): { text: string; count: number } {
    let count = 0;
    const out = text.replace(shape.pattern, (match: string, ...rest: unknown[]) => {
      // replace() passes the groups, then the offset and the whole text (no named groups).
      const groups = rest.slice(0, -2) as (string | undefined)[];
      const replaced = shape.replace ? shape.replace(REDACTED, match, ...groups) : REDACTED;
      if (replaced !== match) count += 1;
      return replaced;
    });
    return { text: out, count };
  }

  /** `text` with every known secret and every token shape replaced by `[redacted]`. */
  redact(text: string, where = "text"): string {
    return this.redactWith(text, where, true);
  }

  /**
   * `text` with every known secret replaced, token shapes left as they are: for what the
   * model reads of its workspace (a fixture's sample token, `Authorization: Bearer ${x}` in
   * code), where a shape cut out would corrupt the file the model edits next, and where no
   * secret of this process can be but by a leak this catches.
   */
  redactKnown(text: string, where = "text"): string {
    return this.redactWith(text, where, false);
  }

  private redactWith(text: string, where: string, shapes: boolean): string {
    const spans = this.spans(text);
    let count = spans.length;
    let out = text;
    for (let k = spans.length - 1; k >= 0; k -= 1) {
      const [start, end] = spans[k] as [number, number];
      out = out.slice(0, start) + REDACTED + out.slice(end);
    }
    for (const shape of shapes ? TOKEN_SHAPES : []) {
      const shaped = this.redactShape(out, shape);
      out = shaped.text;
      count += shaped.count;
    }
    if (count > 0) this.report?.(count, where);
    return out;
  }

  /** This redactor as a plain function, for callers that take a `Redact`. */
  readonly fn: Redact = (text) => this.redact(text);
}

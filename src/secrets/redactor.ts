// The redactor (docs/contributing.md, "Conventions": nothing the bot posts or commits leaves
// without it). It knows secret values it is told about — in every form they take on the
// way out (encoded, recased, spaced, split across lines, escaped; see
// ./secret-forms.ts and ./text-skeleton.ts) — and the token shapes of ./secret-patterns.ts,
// and replaces both with `[redacted]`. It reports how many it removed, never what: the
// count is what a log may say. Text is redacted before anything cuts it (./clip.ts): a
// secret cut in half is no longer recognisable, and its first half still leaks.

import { decoySecret } from "./decoy-secret.js";
import { FRAGMENT, FragmentIndex } from "./fragment-index.js";
import { TOKEN_SHAPES, type TokenShape } from "./secret-patterns.js";
import { MIN_FORM_LENGTH, respelledForms, secretForms } from "./secret-forms.js";
import { alnumProjection, twiceDecoded } from "./text-projections.js";
import { skeleton, type Skeleton } from "./text-skeleton.js";

export const REDACTED = "[redacted]";

export type Redact = (text: string) => string;

/** Told after each call that removed anything: how many, and from what (e.g. "a comment"). */
export type RedactionReport = (count: number, where: string) => void;

/** Shorter values would match ordinary words; nothing we hold is this short. */
const MIN_SECRET_LENGTH = 4;

export interface RedactorOptions {
  /**
   * False: only each secret's whole forms, exactly (the redactor before parts, reversed and
   * respelled forms were looked for). For tests' positive controls.
   */
  fragments?: boolean;
}

export class Redactor {
  /** The secrets as given, for `size` and to learn each once. */
  private readonly secrets = new Set<string>();
  /** Forms too short for a window (8–9 characters), or every whole form without fragments. */
  private forms: string[] = [];
  /** Every window of every form and respelling (fragment-index.ts). */
  private readonly windows = new FragmentIndex();
  /** Character codes run together (`103104115…`), matched whole in the letters-and-digits view. */
  private codes: string[] = [];
  /** Exact values too short for a skeleton form (4–7 characters): matched literally. */
  private literals: string[] = [];
  private report: RedactionReport | undefined;
  private readonly fragments: boolean;

  constructor(
    secrets: Iterable<string | undefined> = [],
    report?: RedactionReport,
    options: RedactorOptions = {},
  ) {
    this.fragments = options.fragments ?? true;
    for (const secret of secrets) this.add(secret);
    this.report = report;
  }

  /** Where counts go from now on (the entry point's log, once it has one). */
  reportTo(report: RedactionReport | undefined): void {
    this.report = report;
  }

  /**
   * Learns a secret value, with every form it takes on the way out (./secret-forms.ts):
   * encoded (base64, base64url, hex, URL, JSON), recased, spaced, split or escaped — and, as
   * parts (any FRAGMENT characters of a form), reversed and respelled.
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
    if (!this.fragments) {
      const known = new Set(this.forms);
      this.forms.push(...forms.filter((form) => !known.has(form)));
      return;
    }
    const respelled = respelledForms(secret);
    // Windows every secret of this kind has (its public prefix) are redacted only with the rest.
    const decoy = decoySecret(secret);
    if (decoy !== null) {
      const other = respelledForms(decoy);
      for (const form of [...other.windowed, ...other.alnum]) this.windows.add(form, true, notRun);
    }
    for (const form of [...respelled.windowed, ...respelled.alnum]) {
      if (form.length >= FRAGMENT) this.windows.add(form, false, notRun);
      else if (form.length >= MIN_FORM_LENGTH && !this.forms.includes(form)) this.forms.push(form);
    }
    if (respelled.codes.length >= 2 * FRAGMENT && !this.codes.includes(respelled.codes)) {
      this.codes.push(respelled.codes);
    }
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
   * in the text's skeleton (and its further views: text-projections.ts), then mapped back,
   * so a span covers the escapes, spaces, separators and line breaks the secret was spread
   * over.
   */
  private spans(text: string): [number, number][] {
    const found: [number, number][] = [];
    const publicParts: [number, number][] = [];
    for (const value of this.literals) {
      eachOccurrence(text, value, (at) => found.push([at, at + value.length]));
    }
    if ((this.forms.length > 0 || this.windows.size > 0) && text.length > 0) {
      const skeletons = [skeleton(text), ...droppedEscapes(text)];
      const twice = twiceDecoded(skeletons[0]!);
      if (twice !== null) skeletons.push(twice);
      skeletons.forEach((view, n) => {
        for (const form of this.forms) {
          eachOccurrence(view.text, form, (at) => found.push(original(view, at, at + form.length)));
        }
        // Spelled-out forms are looked for in the first view: the others differ only in how
        // escapes read.
        this.windows.scan(
          view.text,
          (start, end, isPublic) =>
            (isPublic ? publicParts : found).push(original(view, start, end)),
          n === 0,
          view.units,
        );
      });
      // Character codes (`103, 104, 115, …`): looked for only where the text has such a list.
      if (this.codes.length > 0 && CODE_LIST.test(skeletons[0]!.text)) {
        const alnum = alnumProjection(skeletons[0]!);
        for (const codes of this.codes) {
          eachOccurrence(alnum.text, codes, (at) =>
            found.push(original(alnum, at, at + codes.length)),
          );
        }
      }
    }
    return mergedSpans(found, publicParts);
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

/** Four or more numbers of two or three digits in a row, apart: a list of character codes. */
const CODE_LIST = /\d{2,3}[^\da-z]\d{2,3}[^\da-z]\d{2,3}[^\da-z]\d{2,3}/u;

/** Not a window of one character repeated or counted up or down (`0123456789`): no secret's part. */
function notRun(window: string): boolean {
  return !isRun(window);
}

function isRun(window: string): boolean {
  const step = window.charCodeAt(1) - window.charCodeAt(0);
  if (step < -1 || step > 1) return false;
  for (let k = 2; k < window.length; k += 1) {
    if (window.charCodeAt(k) - window.charCodeAt(k - 1) !== step) return false;
  }
  return true;
}

/** How far around a backslash its other reading can change a window: ten `\\uXXXX`. */
const ESCAPE_REACH = FRAGMENT * 6;

/**
 * The text read with escapes dropped (`g\\h\\s\\_` is `ghs_`), only around its backslashes:
 * elsewhere it reads as the first view does. One skeleton per stretch, mapped to the text.
 */
function droppedEscapes(text: string): Skeleton[] {
  const views: Skeleton[] = [];
  let at = text.indexOf("\\");
  while (at >= 0) {
    const start = Math.max(0, at - ESCAPE_REACH);
    let end = Math.min(text.length, at + ESCAPE_REACH + 1);
    // Stretches that meet are one.
    for (
      let next = text.indexOf("\\", at + 1);
      next >= 0 && next - ESCAPE_REACH <= end;
      next = text.indexOf("\\", next + 1)
    ) {
      at = next;
      end = Math.min(text.length, next + ESCAPE_REACH + 1);
    }
    const part = skeleton(text.slice(start, end), "drop");
    for (let k = 0; k < part.text.length; k += 1) {
      part.from[k] = part.from[k]! + start;
      part.to[k] = part.to[k]! + start;
    }
    views.push(part);
    at = text.indexOf("\\", end);
  }
  return views;
}

/** Calls `at` with each index where `needle` starts in `text`, occurrences not overlapping. */
function eachOccurrence(text: string, needle: string, at: (index: number) => void): void {
  for (let k = text.indexOf(needle); k >= 0; k = text.indexOf(needle, k + needle.length)) at(k);
}

/** [start, end) of `view` as the original text's [start, end). */
function original(view: Skeleton, start: number, end: number): [number, number] {
  return [view.from[start] as number, view.to[end - 1] as number];
}

/**
 * The spans merged where they overlap or touch; a public part is kept only where it overlaps
 * or touches a span of a secret (the rest of a form around it), never alone.
 */
function mergedSpans(
  found: [number, number][],
  publicParts: [number, number][],
): [number, number][] {
  if (found.length === 0) return [];
  const all = [
    ...found.map(([a, b]) => [a, b, 1] as const),
    ...publicParts.map(([a, b]) => [a, b, 0] as const),
  ].sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  const merged: [number, number][] = [];
  let current: [number, number, boolean] | null = null;
  for (const [a, b, secret] of all) {
    if (current !== null && a <= current[1]) {
      current[1] = Math.max(current[1], b);
      current[2] ||= secret === 1;
      continue;
    }
    if (current?.[2]) merged.push([current[0], current[1]]);
    current = [a, b, secret === 1];
  }
  if (current?.[2]) merged.push([current[0], current[1]]);
  return merged;
}

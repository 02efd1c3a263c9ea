// Untrusted text (issue bodies, comments, reviews, agent output) reaches agents as data:
// hidden markup that a person reading GitHub would not see is stripped, so nobody can
// smuggle instructions past the human reviewer (cf. claude-code-action's sanitizer).

const HTML_COMMENT = /<!--[\s\S]*?(-->|$)/g;
// Zero-width, bidi controls, word joiners, BOM, and Unicode tag characters.
const INVISIBLE =
  /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;
const HIDDEN_ATTRS = /\s(?:alt|title|aria-label|data-[\w-]+)\s*=\s*("[^"]*"|'[^']*')/gi;
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function stripHiddenMarkup(text: string): string {
  return text
    .replace(HTML_COMMENT, "")
    .replace(HIDDEN_ATTRS, "")
    .replace(INVISIBLE, "")
    .replace(CONTROL, "")
    .normalize("NFC");
}

const MAX_DATA_CHARS = 60_000;

/**
 * Wraps untrusted text as a data block for a prompt. The closing tag cannot be forged from
 * inside: any occurrence of the wrapper's tag name in the text is defanged.
 */
export function asData(source: string, text: string): string {
  let clean = stripHiddenMarkup(text).replace(/<(\/?)untrusted-data/gi, "<$1untrusted_data");
  if (clean.length > MAX_DATA_CHARS) {
    clean = `${clean.slice(0, MAX_DATA_CHARS)}\n[… truncated ${clean.length - MAX_DATA_CHARS} characters]`;
  }
  const safeSource = source.replace(/[^\w ./:@#-]/g, "");
  return `<untrusted-data source="${safeSource}">\n${clean}\n</untrusted-data>`;
}

// What a secret becomes when text around it is reformatted: split across
// lines, quoted (`> `), spaced out, a zero-width character slipped in, a character written
// as an HTML entity, a JSON or backslash escape, percent-encoding, another letter case. The
// skeleton of a text drops or decodes all of those, keeping for each of its characters
// where it came from, so a match in the skeleton names the span of the original to cut.
// One pass, linear in the text; nothing here is a regular expression over hostile text.

export interface Skeleton {
  /** The text, lowercased, with whitespace, invisibles and escapes dropped or decoded. */
  text: string;
  /** For each character of `text`: where its source starts in the original. */
  from: Int32Array;
  /** For each character of `text`: where its source ends (exclusive) in the original. */
  to: Int32Array;
  /** `text` as UTF-16 code units, when the view has them at hand (a faster read). */
  units?: Uint16Array;
}

// Zero-width, bidi controls, word joiners, the soft hyphen, the BOM, Mongolian vowel
// separator: what renders as nothing (the same set src/engine/human/sanitize.ts strips).
function isInvisible(code: number): boolean {
  return (
    code === 0xad ||
    code === 0x180e ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    code === 0xfeff
  );
}

function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Named references a text may spell a secret's characters with (HTML's, the common ones). */
const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  sol: "/",
  bsol: "\\",
  plus: "+",
  equals: "=",
  period: ".",
  lowbar: "_",
  hyphen: "-",
  dash: "-",
  colon: ":",
  num: "#",
  commat: "@",
  percnt: "%",
  nbsp: " ",
  shy: "",
  zwj: "",
  zwnj: "",
  lrm: "",
  rlm: "",
  NoBreak: "",
  ZeroWidthSpace: "",
};

/**
 * Letters that look like ASCII ones, as ASCII (after lowercasing): full-width forms
 * (U+FF01–U+FF5E, Unicode's "Halfwidth and Fullwidth Forms") and the Cyrillic and Greek
 * letters drawn like Latin ones, so `ｓｋ-ａｎｔ` or a Cyrillic `а` spell what they look like.
 */
function lookAlike(code: number): number {
  if (code < 0x80) return code;
  if (code >= 0xff01 && code <= 0xff5e) {
    const ascii = code - 0xfee0;
    return ascii >= 0x41 && ascii <= 0x5a ? ascii + 0x20 : ascii;
  }
  return LOOK_ALIKE.get(code) ?? code;
}

const LOOK_ALIKE = new Map<number, number>(
  [..."аaеeоoрpсcхxуyкkмmтtнhвbіiјjѕsԁdԛqԝwοoαaνvκkιiτtρpχxυu"].flatMap((c, i, all) =>
    i % 2 === 0 ? [[c.charCodeAt(0), all[i + 1]!.charCodeAt(0)] as [number, number]] : [],
  ),
);

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** `text.slice(at, at + count)` as hex, or -1. */
function hexAt(text: string, at: number, count: number): number {
  if (at + count > text.length) return -1;
  let value = 0;
  for (let k = 0; k < count; k += 1) {
    const digit = hexValue(text.charCodeAt(at + k));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** An entity at `at` (which holds `&`): its decoded text and length, or null. */
function entityAt(text: string, at: number): { value: string; length: number } | null {
  const end = text.indexOf(";", at + 1);
  if (end < 0 || end - at > 32) return null;
  const body = text.slice(at + 1, end);
  if (body.startsWith("#")) {
    const hex = body[1] === "x" || body[1] === "X";
    const digits = hex ? body.slice(2) : body.slice(1);
    if (digits === "" || !(hex ? /^[0-9a-fA-F]{1,6}$/ : /^[0-9]{1,7}$/).test(digits)) return null;
    const code = parseInt(digits, hex ? 16 : 10);
    if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
    return { value: String.fromCodePoint(code), length: end - at + 1 };
  }
  const named = NAMED[body];
  return named === undefined ? null : { value: named, length: end - at + 1 };
}

/** A backslash escape at `at`: its decoded text and length (a lone `\` decodes to nothing). */
function escapeAt(text: string, at: number): { value: string; length: number } {
  const next = text[at + 1];
  if (next === "n" || next === "r" || next === "t") return { value: " ", length: 2 };
  if (next === "u") {
    const code = hexAt(text, at + 2, 4);
    if (code >= 0) return { value: String.fromCharCode(code), length: 6 };
  }
  if (next === "x") {
    const code = hexAt(text, at + 2, 2);
    if (code >= 0) return { value: String.fromCharCode(code), length: 4 };
  }
  // An octal escape (`\163` is `s`, as in C, Python and shell's printf): one to three digits.
  let digits = 0;
  let octal = 0;
  while (digits < 3 && /[0-7]/u.test(text[at + 1 + digits] ?? "")) {
    octal = octal * 8 + Number(text[at + 1 + digits]);
    digits += 1;
  }
  if (digits > 0 && octal <= 0xff) return { value: String.fromCharCode(octal), length: 1 + digits };
  return { value: "", length: 1 };
}

/**
 * `escapes`: "decode" reads `\n`, `\uXXXX`, `\xXX` as the escapes they are in JSON or a
 * string literal; "drop" only drops the backslash (`g\h\s\_` is `ghs_`, and `\n` an `n`). A
 * backslash is ambiguous, so the redactor looks in both when a text has one.
 */
export function skeleton(text: string, escapes: "decode" | "drop" = "decode"): Skeleton {
  const out = new Uint16Array(text.length);
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  let n = 0;
  let lineStart = true;
  const push = (value: string, start: number, end: number) => {
    for (let k = 0; k < value.length; k += 1) {
      const code = value.charCodeAt(k);
      if (isSpace(code) || isInvisible(code)) continue;
      // One unit in, one unit out, so `from`/`to` stay aligned ("İ" lowercases to two).
      const lower = value[k]!.toLowerCase();
      out[n] = lookAlike(lower.length === 1 ? lower.charCodeAt(0) : code);
      from[n] = start;
      to[n] = end;
      n += 1;
    }
  };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    // The common case first: a printable ASCII character that is no escape's start.
    if (code > 0x20 && code < 0x7f && code !== 0x5c && code !== 0x26 && code !== 0x25) {
      if (!lineStart || code !== 0x3e) {
        lineStart = false;
        out[n] = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
        from[n] = i;
        to[n] = i + 1;
        n += 1;
        i += 1;
        continue;
      }
    }
    if (code === 0x0a) {
      lineStart = true;
      i += 1;
      continue;
    }
    // A quote's `>` markers at the start of a line are layout, like the line break itself.
    if (lineStart && (code === 0x3e || code === 0x20 || code === 0x09)) {
      i += 1;
      continue;
    }
    lineStart = false;
    if (isSpace(code) || isInvisible(code)) {
      i += 1;
      continue;
    }
    if (code === 0x5c) {
      const escape = escapes === "decode" ? escapeAt(text, i) : { value: "", length: 1 };
      push(escape.value, i, i + escape.length);
      i += escape.length;
      continue;
    }
    if (code === 0x26) {
      const entity = entityAt(text, i);
      if (entity !== null) {
        push(entity.value, i, i + entity.length);
        i += entity.length;
        continue;
      }
    }
    if (code === 0x25) {
      const byte = hexAt(text, i + 1, 2);
      if (byte >= 0) {
        push(String.fromCharCode(byte), i, i + 3);
        i += 3;
        continue;
      }
    }
    push(text[i] as string, i, i + 1);
    i += 1;
  }
  const units = out.subarray(0, n);
  return {
    text: decodeUnits(units),
    from: from.subarray(0, n),
    to: to.subarray(0, n),
    units,
  };
}

const UTF16 = new TextDecoder("utf-16le");

/**
 * UTF-16 code units as a string, fast (String.fromCharCode over spread chunks is ~7× slower).
 * A lone surrogate becomes U+FFFD, one unit for one: offsets stay aligned.
 */
function decodeUnits(units: Uint16Array): string {
  return UTF16.decode(units);
}

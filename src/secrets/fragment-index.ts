// Every run of FRAGMENT characters of every form of every secret, found in a text in one
// pass: a part of a secret is as bad as all of it — its first 60% alone, half of it in one
// post and half in the next — so the redactor looks for every window of each form, and a
// fragment longer than a window is covered by the windows it holds, merged. A rolling hash
// over the text (Rabin–Karp) with a bitmap in front of the table keeps it to a few
// operations a character whatever the number of windows; a hit is compared character by
// character, so a hash collision redacts nothing.
//
// A window is `public` when every secret of its kind has it (a prefix such as
// `sk-ant-api03-`, decoy-secret.ts): found, it is redacted only as part of a run that holds
// a secret window, so a whole form goes whole and a mention of the prefix stays.
//
// The same pass reads the text's letters and digits spelled out one or two at a time with
// something between them (`g-h-s-_`, `["g","h","s"]`, `67:68:73`, `0x67,0x68`): a chain of
// such short runs is hashed as if it were written together.

/** Characters of a form that count as a part of the secret: 10 random characters are ~50 bits. */
export const FRAGMENT = 10;

const BASE = 0x01000193;
const FILTER_BITS = 20;
const FILTER_MASK = (1 << FILTER_BITS) - 1;

/** BASE^(FRAGMENT-1) mod 2^32: the weight of a window's first character. */
const FIRST_WEIGHT = (() => {
  let w = 1;
  for (let k = 1; k < FRAGMENT; k += 1) w = Math.imul(w, BASE);
  return w;
})();
/** BASE^FRAGMENT mod 2^32: what the character leaving a window ending here weighs. */
const WEIGHT = Math.imul(FIRST_WEIGHT, BASE);

const slot = (hash: number) => (hash ^ (hash >>> FILTER_BITS)) & FILTER_MASK;
const isAlnum = (code: number) => (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a);

/** A found window: where in the text (end exclusive), and whether it is only public. */
export type FragmentHit = (start: number, end: number, isPublic: boolean) => void;

export class FragmentIndex {
  private readonly filter = new Uint8Array(1 << FILTER_BITS);
  /** The characters any window holds: a run is hashed only between the others. */
  private readonly alphabet = new Uint8Array(0x10000);
  /** Windows by hash; `true` marks a public one. */
  private readonly windows = new Map<number, Map<string, boolean>>();
  private count = 0;

  /** How many distinct windows are known. */
  get size(): number {
    return this.count;
  }

  /**
   * Learns every window of `form` that `keep` keeps; `isPublic` marks them public. A window
   * known as public stays public.
   */
  add(form: string, isPublic = false, keep: (window: string) => boolean = () => true): void {
    for (let k = 0; k + FRAGMENT <= form.length; k += 1) {
      const window = form.slice(k, k + FRAGMENT);
      if (!keep(window)) continue;
      const hash = hashOf(window);
      let known = this.windows.get(hash);
      if (known === undefined) this.windows.set(hash, (known = new Map()));
      const was = known.get(window);
      if (was === undefined) this.count += 1;
      for (let c = 0; c < FRAGMENT; c += 1) this.alphabet[window.charCodeAt(c)] = 1;
      known.set(window, was === true || isPublic);
      this.filter[slot(hash)] = 1;
    }
  }

  /** Whether `window` is known, and public. */
  isPublic(window: string): boolean {
    return this.windows.get(hashOf(window))?.get(window) === true;
  }

  /**
   * Calls `hit` for each known window in `text` (`units` its code units, when at hand),
   * written together or spelled out. A character no window holds ends a run: the hash starts
   * again after it, which spares most of ordinary text (code, prose, JSON) the hashing.
   */
  scan(text: string, hit: FragmentHit, spelledOut = true, units?: Uint16Array): void {
    if (this.count === 0 || text.length < FRAGMENT) return;
    const codes = units ?? Uint16Array.from(text, (c) => c.charCodeAt(0));
    const { filter, alphabet } = this;
    const spelled = new SpelledOut(this, hit);
    let runs = 0;
    let clean = 0;
    let runStart = -1;
    for (let i = 0; i < codes.length; i += 1) {
      const code = codes[i]!;
      if (alphabet[code] === 1) {
        runs = (Math.imul(runs, BASE) + code) | 0;
        clean += 1;
        if (clean > FRAGMENT) runs = (runs - Math.imul(codes[i - FRAGMENT]!, WEIGHT)) | 0;
        if (clean >= FRAGMENT && filter[slot(runs)] === 1) {
          const start = i - FRAGMENT + 1;
          this.report(runs, text.slice(start, i + 1), start, i + 1, hit);
        }
      } else {
        runs = 0;
        clean = 0;
      }
      if (!spelledOut) continue;
      if (isAlnum(code)) {
        if (runStart < 0) runStart = i;
        continue;
      }
      if (runStart >= 0) spelled.run(codes, runStart, i);
      runStart = -1;
    }
    if (spelledOut && runStart >= 0) spelled.run(codes, runStart, codes.length);
  }

  /** Reports `window` at [start, end) if known under `hash`. */
  report(hash: number, window: string, start: number, end: number, hit: FragmentHit): void {
    const known = this.windows.get(hash)?.get(window);
    if (known !== undefined) hit(start, end, known);
  }

  /** Whether a hash may be a known window's (the bitmap in front of the table). */
  maybe(hash: number): boolean {
    return this.filter[slot(hash)] === 1;
  }
}

/** The letters and digits of short runs (one or two, or a `0x` byte), hashed as one text. */
class SpelledOut {
  private readonly codes = new Uint16Array(FRAGMENT);
  private readonly places = new Int32Array(FRAGMENT);
  private held = 0;
  private ring = 0;
  private hash = 0;

  constructor(
    private readonly index: FragmentIndex,
    private readonly hit: FragmentHit,
  ) {}

  /** The run of letters and digits at [start, end) of `codes`. */
  run(codes: Uint16Array, start: number, end: number): void {
    let from = start;
    // `0x67`: the notation is not the value.
    if (end - start === 4 && codes[start] === 0x30 && codes[start + 1] === 0x78) from = start + 2;
    if (end - from > 2) {
      this.held = 0;
      this.hash = 0;
      return;
    }
    for (let i = from; i < end; i += 1) this.push(codes[i]!, i);
  }

  private push(code: number, at: number): void {
    if (this.held === FRAGMENT) {
      this.hash = (this.hash - Math.imul(this.codes[this.ring]!, FIRST_WEIGHT)) | 0;
    } else this.held += 1;
    this.hash = (Math.imul(this.hash, BASE) + code) | 0;
    this.codes[this.ring] = code;
    this.places[this.ring] = at;
    this.ring = this.ring === FRAGMENT - 1 ? 0 : this.ring + 1;
    if (this.held < FRAGMENT || !this.index.maybe(this.hash)) return;
    let window = "";
    for (let n = 0; n < FRAGMENT; n += 1) {
      window += String.fromCharCode(this.codes[(this.ring + n) % FRAGMENT]!);
    }
    this.index.report(this.hash, window, this.places[this.ring]!, at + 1, this.hit);
  }
}

function hashOf(window: string): number {
  let hash = 0;
  for (let k = 0; k < window.length; k += 1)
    hash = (Math.imul(hash, BASE) + window.charCodeAt(k)) | 0;
  return hash;
}

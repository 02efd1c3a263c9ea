// Further views of a text's skeleton (text-skeleton.ts) the redactor looks in, each keeping
// for its characters where they came from in the original:
// - its letters and digits alone, so a secret spelled with something between its characters
//   (`g-h-s-_`, `["g","h","s"]`, `67:68:73`, `0x67,0x68`) reads as the secret, or its hex;
// - its skeleton again, where percent-encoding was itself percent-encoded (`%2567`).

import { skeleton, type Skeleton } from "./text-skeleton.js";

const UTF16 = new TextDecoder("utf-16le");

const isAlnum = (code: number) => (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a);

/** The skeleton's letters and digits (it is lowercase), a `0x` before a byte left out. */
export function alnumProjection(skel: Skeleton): Skeleton {
  const text = skel.text;
  const out = new Uint16Array(text.length);
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (!isAlnum(code)) continue;
    // `0x` opening a hex byte (`0x67,0x68`): the notation, not the value.
    if (
      code === 0x30 &&
      text.charCodeAt(i + 1) === 0x78 &&
      (i === 0 || !isAlnum(text.charCodeAt(i - 1))) &&
      isAlnum(text.charCodeAt(i + 2))
    ) {
      i += 1;
      continue;
    }
    out[n] = code;
    from[n] = skel.from[i]!;
    to[n] = skel.to[i]!;
    n += 1;
  }
  return {
    text: UTF16.decode(out.subarray(0, n)),
    from: from.subarray(0, n),
    to: to.subarray(0, n),
  };
}

const PERCENT_HEX = /%[0-9a-f]{2}/u;

/** The skeleton's own skeleton, mapped to the original, when it still holds `%XX`; else null. */
export function twiceDecoded(skel: Skeleton): Skeleton | null {
  if (!PERCENT_HEX.test(skel.text)) return null;
  const again = skeleton(skel.text);
  const from = new Int32Array(again.text.length);
  const to = new Int32Array(again.text.length);
  for (let i = 0; i < again.text.length; i += 1) {
    from[i] = skel.from[again.from[i]!]!;
    to[i] = skel.to[again.to[i]! - 1]!;
  }
  return { text: again.text, from, to };
}

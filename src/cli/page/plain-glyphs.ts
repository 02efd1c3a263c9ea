// Text the job page shows in glyphs every font has. The log and the tree mark things with a
// few symbols (⏸ a gate waiting, ▶ a person's action, ↩ a backtrack); those are emoji
// (Unicode's Extended_Pictographic), which a browser draws from an emoji font — and a machine
// without one (a server, a fresh Debian) shows an empty box. Each becomes a plain symbol of
// the same sense; any other emoji in the engine's own text is dropped. Agents' and people's
// own words (the artifacts) are theirs and left as written. Pure.

const PLAIN: Record<string, string> = {
  "⏸": "‖",
  "▶": "›",
  "↩": "↻",
  "✔": "✓",
  "✖": "✗",
  "✅": "✓",
  "❌": "✗",
  "⚠": "!",
};

export function plainGlyphs(text: string): string {
  return text
    .replace(
      /\p{Extended_Pictographic}\uFE0F?/gu,
      (glyph) => PLAIN[glyph.replace("\uFE0F", "")] ?? "",
    )
    .replace(/\uFE0F/g, "");
}

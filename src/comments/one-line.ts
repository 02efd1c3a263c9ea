// A text on one line, cut at a width with "…" so a cut is never silent: the
// live log, `cfa watch` and the engine's progress lines all cut this way.

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

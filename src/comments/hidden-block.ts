// Structured comments: readable Markdown that ends with a hidden machine block,
// `<!-- cfa {"v":1,"job":N,"kind":"...","seq":K,...} -->`. The bot finds its own comments
// by it, so a re-run after a crash edits or skips instead of posting twice.

import * as z from "zod";

const BLOCK_RE = /<!-- cfa (\{[^\n]*\}) -->\s*$/;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export const HiddenBlockSchema = z
  .object({
    v: z.literal(1),
    job: z.number().int().positive(),
    kind: z.string().regex(/^[a-z][a-z-]*$/),
    seq: z.number().int().nonnegative().optional(),
  })
  .catchall(z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type HiddenBlock = z.infer<typeof HiddenBlockSchema>;

export function withHiddenBlock(markdown: string, block: HiddenBlock): string {
  // `-->` inside the JSON would end the comment early; escape every `>` and `<`.
  const json = JSON.stringify(block).replace(/</g, "\\u003c").replace(/>/g, "\\u003e");
  return `${markdown.trimEnd()}\n\n<!-- cfa ${json} -->\n`;
}

/**
 * The block at the end of a comment body, or null. Defensive (probot/metadata): anything
 * that does not parse, names a prototype key, or fails the schema is ignored, because
 * anyone can write an HTML comment into an issue.
 */
export function readHiddenBlock(body: string): HiddenBlock | null {
  const match = BLOCK_RE.exec(body);
  if (!match?.[1]) return null;
  let unsafe = false;
  let raw: unknown;
  try {
    raw = JSON.parse(match[1], (key, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) unsafe = true;
      return value;
    });
  } catch {
    return null;
  }
  if (unsafe) return null;
  const parsed = HiddenBlockSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

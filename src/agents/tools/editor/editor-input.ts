// The text editor tool's input, as the model writes it: Anthropic defines the schema and
// builds it into the model (https://platform.claude.com/docs/en/agents-and-tools/tool-use/text-editor-tool,
// "Text editor tool commands"), so this one only validates what arrives. `text_editor_20250728`
// has view, create, str_replace and insert; no undo_edit. Its insert carries `insert_text`
// (what the model writes: anthropics/anthropic-sdk-python#1155; the page's older text says
// `new_str`, which is taken too).

import * as z from "zod";

const path = z
  .string()
  .min(1)
  .describe("A path in your workspace: relative to its root, or absolute inside it.");

export const EditorInputSchema = z.discriminatedUnion(
  "command",
  [
    z.object({
      command: z.literal("view"),
      path,
      view_range: z.tuple([z.int(), z.int()]).optional(),
    }),
    z.object({ command: z.literal("create"), path, file_text: z.string() }),
    z.object({
      command: z.literal("str_replace"),
      path,
      old_str: z.string(),
      new_str: z.string().optional(),
    }),
    z
      .object({
        command: z.literal("insert"),
        path,
        insert_line: z.int().min(0),
        insert_text: z.string().optional(),
        new_str: z.string().optional(),
      })
      .refine((i) => i.insert_text !== undefined || i.new_str !== undefined, {
        error: "insert needs insert_text, the text to insert",
        path: ["insert_text"],
      }),
  ],
  {
    error:
      "command must be one of view, create, str_replace, insert (this editor has no undo_edit)",
  },
);
export type EditorInput = z.output<typeof EditorInputSchema>;

/**
 * How many characters a view shows at most (the tool's `max_characters`): about 12,000 tokens.
 * Past it the view is cut at a line and says how to see the rest (a view_range).
 */
export const EDITOR_MAX_CHARACTERS = 50_000;

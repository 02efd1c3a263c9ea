// What a tool call's result says to the model: the MCP result's content as text, bounded.
// Text blocks as they are; an embedded text resource with its URI; binary content (images,
// audio, blobs) named, not inlined; structured content as JSON when nothing else was said
// (https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result).

export interface McpResultText {
  text: string;
  isError: boolean;
}

interface ContentBlock {
  type?: unknown;
  text?: unknown;
  mimeType?: unknown;
  data?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
}

const str = (value: unknown, max = 300): string =>
  typeof value === "string" ? value.slice(0, max) : "";

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio":
      return `[${block.type} ${str(block.mimeType, 80)}, ${typeof block.data === "string" ? block.data.length : 0} base64 characters: not shown]`;
    case "resource": {
      const r = block.resource ?? {};
      if (typeof r.text === "string") return `resource ${str(r.uri)}:\n${r.text}`;
      return `[resource ${str(r.uri)} ${str(r.mimeType, 80)}: binary, not shown]`;
    }
    case "resource_link":
      return `resource link: ${str(block.uri)}${block.name === undefined ? "" : ` (${str(block.name, 120)})`}`;
    default:
      return `[content of type ${str(block.type, 40) || "?"}: not shown]`;
  }
}

/** The result as at most `maxChars` characters; a cut says how much was left out. */
export function mcpResultText(result: unknown, maxChars: number): McpResultText {
  const r = (result ?? {}) as { content?: unknown; structuredContent?: unknown; isError?: unknown };
  const blocks = Array.isArray(r.content) ? (r.content as ContentBlock[]) : [];
  let text = blocks
    .map(blockText)
    .filter((t) => t !== "")
    .join("\n");
  if (text === "" && r.structuredContent !== undefined) {
    text = JSON.stringify(r.structuredContent);
  }
  if (text.length > maxChars) {
    const more = text.length - maxChars;
    text = `${text.slice(0, maxChars)}\n[… cut: ${more.toLocaleString("en-US")} more characters]`;
  }
  return { text, isError: r.isError === true };
}

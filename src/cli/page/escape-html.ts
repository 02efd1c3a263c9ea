// HTML's five special characters as entities: every text a job page shows that came from an
// agent or a person goes through this (or safe-markdown.ts) before it reaches the page.

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

// What a recorded tool call did to the workspace, read from its name and input, whichever tool
// set it came from (tool-sets.ts): the path it read or wrote, the command it ran. For the views
// of a job (the files a task wrote, the commands an instance ran, what a proxy read) and for a
// restarted conversation's summary; never a security decision.

export interface CallFacts {
  /** A path it read (a file or a folder: "." for the root). */
  reads?: string;
  /** A path it wrote. */
  writes?: string;
  /** The command it ran, as one line. */
  command?: string;
}

const READING = new Set(["read_file", "list_files", "search_files"]);
const WRITING = new Set(["write_file", "edit_file"]);
const EDITOR_WRITES = new Set(["create", "str_replace", "insert"]);

export function callFacts(name: string, input: unknown): CallFacts {
  const fields = (input ?? {}) as { path?: unknown; argv?: unknown; command?: unknown };
  const path = typeof fields.path === "string" && fields.path !== "" ? fields.path : undefined;
  if (READING.has(name)) return { reads: path ?? "." };
  if (WRITING.has(name)) return path === undefined ? {} : { writes: path };
  if (name === "str_replace_based_edit_tool" && path !== undefined) {
    if (fields.command === "view") return { reads: path };
    if (typeof fields.command === "string" && EDITOR_WRITES.has(fields.command)) {
      return { writes: path };
    }
    return {};
  }
  if (name === "run_command" && Array.isArray(fields.argv)) {
    return {
      command: fields.argv
        .map((a) => (typeof a === "string" && /^[\w./:=@,+-]+$/.test(a) ? a : JSON.stringify(a)))
        .join(" "),
    };
  }
  if (name === "bash" && typeof fields.command === "string") {
    return { command: fields.command.trim().replace(/\s+/g, " ") };
  }
  return {};
}

// The programs a shell command names, for the audit line: the first word of each simple
// command (after `|`, `&&`, `||`, `;`, `&`, a newline, `(`, `$(` or a backquote), past variable
// assignments and wrappers that run the next word (env, time, nice, nohup, exec, command,
// sudo, xargs). A reading of the text, not of what ran: the sandbox is the boundary and this is
// a note to the person, so a name it misses or over-counts costs nothing but a line.

const SEPARATORS = /\|\||&&|[|;&\n()`]|\$\(/u;
const WRAPPERS = new Set([
  "env",
  "time",
  "nice",
  "nohup",
  "exec",
  "command",
  "sudo",
  "xargs",
  "then",
  "do",
  "else",
  "if",
  "while",
  "until",
  "!",
  "{",
  "}",
]);
const KEYWORDS = new Set([
  "fi",
  "done",
  "esac",
  "in",
  "for",
  "case",
  "function",
  "return",
  "local",
  "export",
  "unset",
  "set",
  "cd",
  "echo",
  "printf",
  "test",
  "[",
  "[[",
  "true",
  "false",
  ":",
  ".",
  "source",
  "read",
  "shift",
  "trap",
  "wait",
  "exit",
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/u;
const MAX_NAMES = 20;

export function namedPrograms(command: string): string[] {
  const names: string[] = [];
  // A redirection's `&` (`2>&1`, `&>`) separates nothing.
  const plain = command.replace(/\d*[<>]&\d*-?|&>>?/gu, " ");
  for (const part of plain.split(SEPARATORS)) {
    const words = part
      .trim()
      .split(/\s+/u)
      .filter((w) => w !== "");
    let i = 0;
    while (i < words.length && (ASSIGNMENT.test(words[i]!) || WRAPPERS.has(words[i]!))) i += 1;
    const word = words[i];
    if (word === undefined || KEYWORDS.has(word) || word.startsWith("-") || word.startsWith("$")) {
      continue;
    }
    // A path names its program by its last part (`.venv/bin/python` is python).
    const name =
      word
        .replace(/^['"]|['"]$/gu, "")
        .split("/")
        .at(-1) ?? "";
    if (/^[A-Za-z0-9_.+-]{1,60}$/u.test(name) && !names.includes(name)) names.push(name);
    if (names.length === MAX_NAMES) break;
  }
  return names;
}

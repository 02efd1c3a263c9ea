// A small glob dialect for the search tool: `*` and `?` stay within one path component,
// `**` crosses components, `[...]` and `{a,b}` as in a shell. A glob without `/` is
// matched against the file's name, as `*.ts` is meant.

const SPECIAL = /[.+^$()|\\]/u;

export function globToRegExp(glob: string): RegExp {
  let source = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        source += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else {
        source += "[^/]*";
      }
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) {
        source += "\\[";
      } else {
        const body = glob.slice(i + 1, end).replace(/\\/gu, "\\\\");
        source += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else if (char === "{") {
      braces += 1;
      source += "(?:";
    } else if (char === "}" && braces > 0) {
      braces -= 1;
      source += ")";
    } else if (char === "," && braces > 0) {
      source += "|";
    } else {
      source += SPECIAL.test(char) || char === "{" || char === "}" ? `\\${char}` : char;
    }
  }
  source += ")".repeat(braces);
  return new RegExp(`^${source}$`, "u");
}

export function matchesGlob(relativePath: string, glob: string): boolean {
  const target = glob.includes("/")
    ? relativePath
    : relativePath.slice(relativePath.lastIndexOf("/") + 1);
  return globToRegExp(glob).test(target);
}

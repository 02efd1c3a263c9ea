// A git config as the sandbox shows it: only the sections git needs to read the repository.
// actions/checkout persists the job's token in the repository's config
// (`http.<url>.extraheader`, or an `includeIf` pointing at a credentials file), and
// remotes, credential helpers or `url.*.insteadOf` can carry tokens too, so this keeps an
// allowlist of sections rather than stripping the ones known to be dangerous.

export const KEPT_GIT_CONFIG_SECTIONS = ["core", "extensions"] as const;

const KEPT: ReadonlySet<string> = new Set(KEPT_GIT_CONFIG_SECTIONS);

// `[section]`, `[section "subsection"]` or the old `[section.subsection]`; a key may follow
// the header on the same line, so the whole line goes with its section.
const HEADER = /^\s*\[\s*([A-Za-z0-9-]+)/;

export function sanitizeGitConfig(text: string): string {
  const kept: string[] = ["# cfa/sandbox: sections other than core and extensions are hidden"];
  let keeping = false;
  for (const line of text.split(/\r?\n/)) {
    const header = HEADER.exec(line);
    if (header?.[1] !== undefined) keeping = KEPT.has(header[1].toLowerCase());
    // Lines before any header and continuation lines follow the current section.
    if (keeping) kept.push(line);
  }
  return kept.join("\n") + "\n";
}

// Options every file operation takes: the protected prefixes (read-only for agents) and a
// seam through which tests reproduce races deterministically.

export interface FileToolSeam {
  /** Runs after the boundary check and before anything is opened: a race window made real. */
  beforeOpen?: (resolved: string) => void | Promise<void>;
  /** Forces the path-based fallback used where /proc/self/fd is not mounted. */
  pathOnly?: boolean;
}

export interface FileToolOptions {
  /** Root-relative prefixes that may be read but not written (the engine passes `.cfa/`). */
  protect?: readonly string[];
  /** Refuse any symbolic link on the path (the engine's records and artifacts). */
  noLinks?: boolean;
  /** For tests only. */
  seam?: FileToolSeam;
}

// A role definition that cannot be used: the file is missing, its front matter is not YAML,
// or it names a tool, command or field that does not exist. Raised at load, so a broken
// role stops the run before any agent is sparked with the wrong tool surface.

export class RoleError extends Error {
  override readonly name = "RoleError";
  constructor(
    /** The role file (or "overrides" for a config override). */
    readonly file: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`cfa/roles: ${file}: ${detail}`, options);
  }
}

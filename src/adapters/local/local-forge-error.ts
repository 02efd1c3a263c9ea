// What the local forge refuses, in one line naming what was wrong.

export class LocalForgeError extends Error {
  override readonly name = "LocalForgeError";
}

// Who acts on the local forge: the repository's `git config user.name`, made into a login,
// or $USER. They are an admin there: it is their own repository.

import { gitTry } from "./git-text.js";

/** A GitHub-style login from a display name: "Ana López" → "ana-lopez"; null if nothing is left. */
export function loginFrom(name: string): string | null {
  const login = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 39)
    .replace(/-+$/, "");
  return login === "" ? null : login;
}

export async function personLogin(
  repoDir: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  const configured = (await gitTry(repoDir, ["config", "--get", "user.name"]))?.trim() ?? "";
  for (const name of [configured, env.USER ?? "", env.LOGNAME ?? "", env.USERNAME ?? ""]) {
    const login = loginFrom(name);
    if (login !== null) return login;
  }
  return "you";
}

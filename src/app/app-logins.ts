// The logins the app posts as (`<slug>[bot]`): only comments by them count as already posted
// (post-once.ts), so another app's comment cannot pass for ours. Asked of GitHub once, as the app
// (GET /app, https://docs.github.com/rest/apps/apps#get-the-authenticated-app); a failed look-up is
// asked again next time.

import type { Probot } from "probot";

export type BotLogins = () => Promise<readonly string[]>;

export function appLogins(probot: Pick<Probot, "auth">, known?: string): BotLogins {
  let own: Promise<readonly string[]> | undefined;
  return () =>
    (own ??= (known === undefined ? appLogin(probot) : Promise.resolve(known))
      .then((login) => [login])
      .catch((error: unknown) => {
        own = undefined;
        throw error;
      }));
}

async function appLogin(probot: Pick<Probot, "auth">): Promise<string> {
  const octokit = await probot.auth();
  const { data } = await octokit.request("GET /app");
  const slug = (data as { slug?: unknown } | null)?.slug;
  if (typeof slug !== "string" || slug === "") {
    throw new Error("cfa/app: GET /app returned no slug; cannot tell the app's own comments");
  }
  return `${slug}[bot]`;
}

// One GitHub client per installation, made when a queued delivery first needs it (never
// while GitHub waits for its answer) and kept: Probot's client refreshes the installation
// token itself (@octokit/auth-app, cached for 59 minutes), throttles content writes to
// GitHub's pace (@octokit/plugin-throttling: its limiters are module-wide and keyed by
// `throttle.id`, which Probot leaves at "no-id", so one write a second for the whole
// process, every installation together) and retries server errors (@octokit/plugin-retry).

import type { Probot, ProbotOctokit } from "probot";

export type InstallationClient = ProbotOctokit;

export interface InstallationClients {
  get(installationId: number): Promise<InstallationClient>;
}

/** Installations served by one process are few; past this the oldest client is dropped. */
const MAX_CLIENTS = 500;

export function createInstallationClients(probot: Pick<Probot, "auth">): InstallationClients {
  const clients = new Map<number, Promise<InstallationClient>>();
  return {
    get(installationId) {
      let client = clients.get(installationId);
      if (client === undefined) {
        client = probot.auth(installationId);
        // A failed authentication is not kept: the next delivery tries again.
        client.catch(() => clients.delete(installationId));
        clients.set(installationId, client);
        if (clients.size > MAX_CLIENTS) {
          const oldest = clients.keys().next();
          if (!oldest.done) clients.delete(oldest.value);
        }
      }
      return client;
    },
  };
}

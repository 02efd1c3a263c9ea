// A verified delivery, handed to the queue with the way to reach its repository: the
// installation's client, made lazily (installation-clients.ts). Returns at once.

import { createGitHubCues, type GitHubRequester } from "../github-events/github-cues.js";
import type { Delivery, RepoDeps } from "../github-events/handle-delivery.js";
import { livePermission } from "../github-events/live-permission.js";
import type { RepoRef } from "../github-events/app-event.js";
import { installationOf } from "../github-events/installation-of.js";
import type { Logger } from "../ports/logger.js";
import type { Accepted, DeliveryQueue } from "./delivery-queue.js";
import type { InstallationClient, InstallationClients } from "./installation-clients.js";
import { loadAppConfig } from "./load-app-config.js";

export type ReceiveDelivery = (delivery: Delivery) => Accepted;

export function createDeliveryReceiver(deps: {
  queue: DeliveryQueue;
  clients: InstallationClients;
  /** The logger for one delivery (its id bound). */
  loggerFor(delivery: Delivery): Logger;
}): ReceiveDelivery {
  return (delivery) => {
    const installation = installationOf(delivery.payload);
    const client = (): Promise<InstallationClient> =>
      installation === null
        ? Promise.reject(
            new Error(
              `cfa/app: delivery ${delivery.id} names no installation; is it from the GitHub App's webhook?`,
            ),
          )
        : deps.clients.get(installation);
    const forRepo = (repo: RepoRef): RepoDeps => {
      const github: GitHubRequester = {
        request: async (route, params) => (await client()).request(route, params),
        paginate: async (route, params) =>
          (await client()).paginate(route, params) as Promise<unknown[]>,
      };
      return {
        effects: createGitHubCues(github, repo),
        loadConfig: async () => loadAppConfig(await client(), repo),
        permission: (login) => livePermission(github, repo, login),
      };
    };
    return deps.queue.accept(delivery, forRepo, deps.loggerFor(delivery));
  };
}

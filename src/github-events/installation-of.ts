// The installation a delivery names. A GitHub App's webhook names it in every event it
// sends about a repository; a repository or organisation webhook never does (GitHub's REST
// description, github/rest-api-description, schema `simple-installation`: "Webhook payloads
// contain the `installation` property when the event is configured for and sent to a
// GitHub App").

export function installationOf(payload: unknown): number | null {
  const id = (payload as { installation?: { id?: unknown } } | null)?.installation?.id;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? id : null;
}

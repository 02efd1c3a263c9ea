// Settings every sandboxed command gets unless its environment already names them:
// per-command work that the sandbox makes useless, switched off so a command costs what
// it runs and no more.
//
// - npm's update check. On every command npm asks the registry for its own latest version
//   unless it did within a week, which it notes in `_update-notifier-last-checked` beside its
//   cache folder (npm/lib/cli/update-notifier.js: `resolve(cache, '../_update-notifier-last-
//   checked')`). In the sandbox that note is never kept — the shared cache's parent is not
//   writable, and a workspace's own one would be committed — so every `npm test` loaded the
//   registry client and waited for a request that no network answers: 0.5–1 s a command on
//   this 2-core machine (the demo's six `npm test`). npm's docs, config
//   `update-notifier`: "Set to false to suppress the update notification when using an
//   older version of npm than the latest." Nothing else changes: the command, its exit code
//   and its output are the same.

export const TOOL_DEFAULTS: Readonly<Record<string, string>> = {
  npm_config_update_notifier: "false",
};

/** `env` with TOOL_DEFAULTS added where it does not set them itself. */
export function withToolDefaults(env: Record<string, string>): Record<string, string> {
  return { ...TOOL_DEFAULTS, ...env };
}

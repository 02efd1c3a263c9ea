// Secret values planted in this process's environment, as a runner's would be there: a
// payload that ran inside the engine's process (a git hook or filter, a link followed) would
// find them, so a test that they reach nothing it can see shows the defence held.

/** Plants a GITHUB_TOKEN and an ANTHROPIC_API_KEY named after `tag` (e.g. "EngineGit"). */
export function plantSecrets(tag: string) {
  const planted = {
    GITHUB_TOKEN: `ghs_planted${tag}Token0123456789`,
    ANTHROPIC_API_KEY: `sk-ant-planted-${tag}`,
  };
  Object.assign(process.env, planted);
  return planted;
}

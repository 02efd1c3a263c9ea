import { describe, expect, it } from "vitest";
import { sanitizeGitConfig } from "../../../../src/adapters/sandbox/sanitize-git-config.js";

// What actions/checkout leaves behind (persist-credentials), plus other places a token hides.
const CHECKOUT_CONFIG = `[core]
	repositoryformatversion = 0
	filemode = true
	bare = false
	logallrefupdates = true
[remote "origin"]
	url = https://x-access-token:ghs_secretsecret@github.com/o/r
	fetch = +refs/heads/*:refs/remotes/origin/*
[http "https://github.com/"]
	extraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldA==
[includeIf "gitdir:/home/runner/work/r/r/.git"]
	path = /home/runner/work/_temp/git-credentials-1234.config
[credential]
	helper = store
[extensions]
	worktreeConfig = true
[Http]
	extraHeader = AUTHORIZATION: bearer x
[url "https://ghp_token@github.com/"] insteadOf = https://github.com/
[core "x"] sshCommand = ssh -i key
`;

describe("sanitizeGitConfig: only core and extensions reach the sandbox", () => {
  const out = sanitizeGitConfig(CHECKOUT_CONFIG);

  it("keeps what git needs to read the repository", () => {
    expect(out).toContain("repositoryformatversion = 0");
    expect(out).toContain("worktreeConfig = true");
    expect(out).toContain("[core]");
    expect(out).toContain("[extensions]");
  });

  it("drops every section that can carry a credential, whatever its case or layout", () => {
    for (const gone of [
      "extraheader",
      "extraHeader",
      "ghs_",
      "ghp_",
      "includeIf",
      "credential",
      "_temp",
      "remote",
      "insteadOf",
    ]) {
      expect(out).not.toContain(gone);
    }
  });

  it("keeps a key written on its header line in a kept section", () => {
    expect(out).toContain('[core "x"] sshCommand = ssh -i key');
  });
});

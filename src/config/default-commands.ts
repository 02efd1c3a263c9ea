// The commands each role may run by default (seed 000 §10, §13: the role definition
// controls authorization). Program names only: the sandbox matches argv[0] against them.
// No shell (`sh`, `bash`) by default: a shell runs any program and would make the list
// meaningless; a repository that wants one adds it in .github/cfa.yml.

import type { Role } from "./roles.js";

/** Reading and searching the workspace. */
const READ = ["ls", "cat", "grep", "find", "head", "tail", "wc", "diff"] as const;

/** Changing files and running the project's own tooling. */
const BUILD = ["node", "npm", "npx", "sed", "mkdir", "cp", "mv", "rm", "touch"] as const;

export const DEFAULT_COMMANDS: Readonly<Record<Role, readonly string[]>> = {
  // Leads write their artifact through file tools; git lets them read history and, for the
  // project lead, resolve merge conflicts of task branches (DESIGN.md "Mapping").
  "intent-lead": ["git", ...READ],
  "project-lead": ["git", ...READ],
  worker: ["git", ...BUILD, ...READ],
  // Verifiers run the tests but change nothing.
  verifier: ["git", "node", "npm", "npx", ...READ],
  // The proxy answers from the workspace clone and its memory file; it only reads.
  proxy: [...READ],
};

// The workflow file this run belongs to, from GITHUB_WORKFLOW_REF
// ("owner/repo/.github/workflows/cfa.yml@refs/heads/main"). In Actions-only mode and in the
// sweep the worker dispatches its own workflow, whatever the file is called.

export function ownWorkflow(workflowRef: string | undefined): string | null {
  const match = /\/\.github\/workflows\/([^/@]+\.ya?ml)@/.exec(workflowRef ?? "");
  return match?.[1] ?? null;
}

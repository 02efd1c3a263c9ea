// Branch names and commit ids reach `git push` as arguments: refuse anything that is not a
// plain branch name or a full object id before it can be read as an option or a pattern.

export class InvalidPushError extends Error {
  override readonly name = "InvalidPushError";
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

// git-check-ref-format(1), for the branch part of refs/heads/<branch>.
function branchProblem(branch: string): string | undefined {
  if (branch === "") return "it is empty";
  if (branch.startsWith("-")) return "it starts with '-'";
  if (branch.startsWith("/") || branch.endsWith("/")) return "it starts or ends with '/'";
  if (branch.endsWith(".") || branch.endsWith(".lock")) return "it ends with '.' or '.lock'";
  if (branch.includes("..") || branch.includes("//") || branch.includes("@{")) {
    return "it contains '..', '//' or '@{'";
  }
  if (branch === "@") return "it is '@'";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(branch)) {
    return "it contains a space, a control character or one of ~^:?*[\\";
  }
  if (branch.split("/").some((part) => part.startsWith("."))) {
    return "a component starts with '.'";
  }
  return undefined;
}

export function validatePush(
  branch: string,
  update: { sha: string; expectedOld: string | null },
): void {
  const problem = branchProblem(branch);
  if (problem !== undefined) {
    throw new InvalidPushError(
      `cfa/github: cannot push to branch ${JSON.stringify(branch)}: ${problem}; use a valid git branch name`,
    );
  }
  for (const [field, value] of [
    ["sha", update.sha],
    ["expectedOld", update.expectedOld],
  ] as const) {
    if (value !== null && !OBJECT_ID.test(value)) {
      throw new InvalidPushError(
        `cfa/github: cannot push ${branch}: ${field} ${JSON.stringify(value)} is not a full commit id; pass the 40-character sha`,
      );
    }
  }
}

// `cfa followup N "<request>"`: asks for more work on job N's pull request, as `/cfa
// <request>` does on GitHub (docs/protocol.md#jobs-and-states). After the job ended (DONE or
// WITHDRAWN) a follow-up starts: a new job on the same branch and pull request, from INTENT,
// whose request is this text; while the job (or a follow-up) runs, its lead reads it as an
// intervention. The request comes from the argument, a file (--file) or standard input (-).

import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { requireFollowable } from "../job-checks.js";
import { CliError } from "../cli-error.js";
import { fsReason } from "../fs-reason.js";
import { jobVerb } from "../job-verb.js";
import { UsageError } from "../usage-error.js";

/** The longest request taken (characters): a request is read whole by the follow-up's lead. */
export const REQUEST_MAX_CHARS = 20_000;

export const followupCommand = jobVerb({
  name: "followup",
  usage: `
Usage: cfa followup <N> "<request>" [--repo DIR] [--verbose] [--record FILE]
       cfa followup <N> --file PATH
       cfa followup <N> -            (the request from standard input)

Asks for more work on job N's pull request, as \`/cfa <request>\` does on GitHub. After job
N ended (DONE or WITHDRAWN) this starts a follow-up: a new job on the same branch cfa/<N> and
the same pull request, which runs from INTENT like any job — its intent lead reads what the
job before intended, planned and did (its INTENT.md, PLAN.md, WORK_SUMMARY.md and diff) and
your request, and drafts the follow-up's INTENT.md for you to review; then PLAN, EXECUTE (its
tasks branch from cfa/<N> as it is now, a commit you pushed there included) and your last
approval, as before. The job before keeps its records as they were (.cfa/jobs/<N>/); the
follow-up's are beside them (.cfa/jobs/<N>.2/, then .3/ …). Afterwards use the same verbs as
for any job (cfa approve <N>, cfa reject <N>, cfa watch <N>, cfa inspect <N> shows every
round). \`cfa reject <N> --comment … --inline FILE:LINE:TEXT\` after the end asks the same way,
as a review with inline comments.

One follow-up runs at a time: while job N or its follow-up runs, the request reaches the
current lead as an intervention (\`cfa intervene\`). A job that ended in FAILURE takes none;
nor does one whose work is merged (start a new job).`,
  optionHelp: [["--file PATH", "read the request from a file"]],
  options: { file: { type: "string" } },
  after: { optional: ["<request>"] },
  async act(n, { values, positionals }, io) {
    const given = positionals[1];
    if (values.file !== undefined && given !== undefined) {
      throw new UsageError("followup", "give the request as text or with --file, not both");
    }
    let request: string;
    if (values.file !== undefined) {
      const path = resolve(io.cwd, values.file);
      request = await readFile(path, "utf8").catch((error: unknown) => {
        throw new CliError(`cannot read the request from ${path}: ${fsReason(error)}.`);
      });
    } else if (given === "-") {
      if (io.readStdin === undefined) throw new CliError("there is no standard input to read.");
      request = await io.readStdin();
    } else {
      request = given ?? "";
    }
    request = request.trim();
    if (request === "") {
      throw new UsageError(
        "followup",
        '<request> is empty: say what you want changed (cfa followup 1 "…", --file PATH, or - for standard input)',
      );
    }
    if (request.length > REQUEST_MAX_CHARS) {
      throw new UsageError(
        "followup",
        `the request is ${request.length} characters; at most ${REQUEST_MAX_CHARS} are taken`,
      );
    }
    return {
      action: { action: "followup", job: n, text: request },
      check: requireFollowable,
      followUp: true,
    };
  },
});

#!/usr/bin/env node
// The `cfa` command. The TypeScript lives in src/cli; `npm ci` builds it into dist/ (the
// `prepare` script), so a missing dist/ means the build has not run yet.

// package.json's `engines` is advice npm prints and goes on; an older Node gets one line
// here instead of whatever breaks first.
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `cfa: needs Node.js 22.12 or later (24 is what cfa-bot is tested on); this is ${process.version}.\n`,
  );
  process.exit(1);
}

let main;
try {
  ({ main } = await import("../dist/cli/main.js"));
} catch (error) {
  if (
    error?.code === "ERR_MODULE_NOT_FOUND" &&
    String(error.message).includes("dist/cli/main.js")
  ) {
    process.stderr.write("cfa: dist/ is not built yet: run `npm ci` or `npm run build` first.\n");
    process.exit(1);
  }
  throw error;
}
process.exitCode = await main(process.argv.slice(2));

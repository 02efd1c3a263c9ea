#!/usr/bin/env node
// The `cfa` command. The TypeScript lives in src/cli; `npm ci` builds it into dist/ (the
// `prepare` script), so a missing dist/ means the build has not run yet.

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

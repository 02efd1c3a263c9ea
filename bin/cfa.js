#!/usr/bin/env node
// The `cfa` command. The TypeScript lives in src/cli; `npm ci` builds it into dist/.
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv.slice(2));

// `npm run bundle`: the worker and the webhook server, each as one ESM file with every
// dependency inside (esbuild), so a release runs them with `node` alone:
//
//   dist/cfa-worker.mjs   what action.yml runs (`uses: <owner>/cfa-bot@v1`), no npm ci
//   dist/cfa-server.mjs   what the Docker image runs, no node_modules in the image
//
// The worker finds prompts/ from the nearest package.json named cfa-bot
// (src/skills/package-root.ts), so a release tree is: action.yml, package.json, prompts/,
// dist/cfa-worker.mjs. No code splitting: each entry point is one file.

import { build, type BuildOptions } from "esbuild";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

export const BUNDLES = {
  "cfa-worker": "src/worker/main.ts",
  "cfa-server": "src/app/server.ts",
} as const;

export const BUNDLE_OPTIONS: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: "node",
  format: "esm",
  // The oldest Node the package supports (package.json engines); runners bring 20 or 24.
  target: "node20",
  // CommonJS dependencies call require() for Node's own modules; an ES module has none.
  banner: {
    js: 'import { createRequire as __cfaCreateRequire } from "node:module"; const require = __cfaCreateRequire(import.meta.url);',
  },
  // Smaller files parse faster at every start; names stay, so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
};

export interface BundleResult {
  /** Bytes per bundle. */
  sizes: Record<string, number>;
  /** Imports left outside the bundles: only Node's own modules may be. */
  external: string[];
}

export async function bundle(outdir = "dist"): Promise<BundleResult> {
  const sizes: Record<string, number> = {};
  const external = new Set<string>();
  for (const [name, entry] of Object.entries(BUNDLES)) {
    const result = await build({
      ...BUNDLE_OPTIONS,
      entryPoints: [entry],
      outfile: `${outdir}/${name}.mjs`,
      metafile: true,
    });
    for (const output of Object.values(result.metafile.outputs)) {
      sizes[name] = (sizes[name] ?? 0) + output.bytes;
      for (const i of output.imports) if (i.external) external.add(i.path);
    }
  }
  return { sizes, external: [...external].sort() };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { sizes } = await bundle();
  for (const [name, bytes] of Object.entries(sizes)) {
    console.log(`dist/${name}.mjs ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  }
}

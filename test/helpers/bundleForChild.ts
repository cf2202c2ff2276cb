import { build } from 'esbuild';
import { join } from 'node:path';

/**
 * Bundles a module of src/ (TypeScript) into one ES module file in `dir`,
 * for child processes of a test: they run it with plain `node`, without a
 * build of the project.
 */
export async function bundleForChild(entry: string, dir: string): Promise<string> {
  const outfile = join(dir, 'bundle.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    // CommonJS packages in the bundle (undici) require Node's modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return outfile;
}

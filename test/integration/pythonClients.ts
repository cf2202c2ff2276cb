/**
 * The Python of the official clients' scenarios: `$SCHOLARLY_PYTHON`, a
 * virtual environment with springernature-api-client and sprynger at the
 * versions pinned in scripts/ci-requirements.txt (.ci/run builds it). Missing
 * (no variable, no interpreter, a package not importable): in CI an error (a
 * failure, never a skip); elsewhere `undefined` with a warning (the caller
 * skips).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './helpers.js';

/** The distributions the scenarios drive, by their PyPI names. */
export const CLIENT_PACKAGES = ['springernature-api-client', 'sprynger'] as const;

/** The version of each package pinned in scripts/ci-requirements.txt. */
export function pinnedVersions(): Record<string, string> {
  const text = readFileSync(resolve(ROOT, 'scripts/ci-requirements.txt'), 'utf8');
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^([A-Za-z0-9_.-]+)==([^\s#]+)/gm)) out[m[1]!.toLowerCase()] = m[2]!;
  return out;
}

/** The interpreter, with the installed versions of {@link CLIENT_PACKAGES}; see the module comment for what happens when it is missing. */
export function clientsPython(): { python: string; versions: Record<string, string> } | undefined {
  const python = process.env['SCHOLARLY_PYTHON'];
  let problem: string | undefined;
  let versions: Record<string, string> = {};
  if (!python)
    problem =
      'SCHOLARLY_PYTHON is not set (.ci/run sets it to a virtual environment built from scripts/ci-requirements.txt)';
  else {
    try {
      const script = `import json, importlib.metadata as m, springernature_api_client, sprynger; print(json.dumps({p: m.version(p) for p in ${JSON.stringify(CLIENT_PACKAGES)}}))`;
      versions = JSON.parse(execFileSync(python, ['-c', script], { encoding: 'utf8', timeout: 60_000 })) as Record<
        string,
        string
      >;
    } catch (err) {
      problem = `${python} cannot import springernature_api_client and sprynger (pip install -r scripts/ci-requirements.txt): ${(err as Error).message.split('\n')[0]}`;
    }
  }
  if (!problem) return { python: python!, versions };
  if (process.env['CI']) throw new Error(`the official clients' Python is missing in CI: ${problem}`);
  console.warn(`skipping: ${problem}`);
  return undefined;
}

import { readFileSync } from 'node:fs';
import { ToolkitError } from '../errors.js';
import { SAMPLE_API_KEY, type ApiKeySpec, type KeyPlan } from './ServeOptions.js';

/** Reads a key given as `KEY`, `KEY:basic` or `KEY:premium`. */
export function parseKeySpec(text: string): ApiKeySpec {
  const trimmed = text.trim();
  const m = /^(.*):(basic|premium)$/i.exec(trimmed);
  const key = m ? m[1]! : trimmed;
  if (key === '' || /\s/.test(key)) throw new ToolkitError('an API key must be non-empty and without spaces', 'usage');
  return { key, plan: (m ? m[2]!.toLowerCase() : 'basic') as KeyPlan };
}

/** Reads a keys file: one key per line (`KEY` or `KEY:premium`), `#` comments and blank lines skipped. */
export function readKeysFile(path: string): ApiKeySpec[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ToolkitError(`cannot read the keys file ${path}: ${(err as Error).message}`, 'io', { cause: err });
  }
  const out: ApiKeySpec[] = [];
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    out.push(parseKeySpec(t));
  }
  return out;
}

/** The accepted keys and their plans; `sample` (premium) when none is configured. */
export function resolveKeys(
  apiKeys: readonly (string | ApiKeySpec)[] | undefined,
  keysFile: string | undefined,
): Map<string, KeyPlan> {
  const keys = new Map<string, KeyPlan>();
  for (const k of apiKeys ?? []) {
    const spec = typeof k === 'string' ? parseKeySpec(k) : k;
    keys.set(spec.key, spec.plan ?? 'basic');
  }
  if (keysFile) for (const spec of readKeysFile(keysFile)) keys.set(spec.key, spec.plan ?? 'basic');
  if (keys.size === 0) keys.set(SAMPLE_API_KEY, 'premium');
  return keys;
}

import { hideSecrets } from '../errors.js';

/** Flags whose value is a secret. */
const SECRET_FLAGS = new Set(['--api-key', '--password']);
/** Environment variables whose value is a secret. */
const SECRET_VARIABLES = ['SCHOLARLY_API_KEY', 'SPRINGERNATURE_API_KEY', 'SCHOLARLY_STORE_PASSWORD'];
/** Environment variables whose value is a URL that may carry `user:password@` (a proxy's). */
const URL_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];
/** Query parameters whose value is a secret (a store's key in its endpoint). */
const SECRET_PARAMS = /^(api[_-]?key|apikey|key|token|access[_-]?token|auth|password|passwd|pwd|secret)$/i;
/** Keys that are public (the sample service's): hiding them would garble texts. */
const PUBLIC = new Set(['sample']);

/**
 * Every secret a CLI run was given: API keys and store passwords (flags and environment), the user and
 * password of a proxy (`HTTPS_PROXY=http://user:password@host`) or of a URL given as an argument
 * (`--endpoint http://user:pw@host`), as written and percent-decoded, and `user:password` (what a Basic
 * header carries in base64), and the values of secret query parameters of URLs given. The CLI takes each
 * of them, in every form {@link redact} knows, out of all it prints (stderr, the `--json` object).
 */
export function secretsOfRun(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  const found = new Set<string>();
  const add = (value: string | undefined) => {
    if (value && !PUBLIC.has(value)) found.add(value);
  };
  for (const [i, arg] of argv.entries()) {
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0 && SECRET_FLAGS.has(arg.slice(0, eq))) add(arg.slice(eq + 1));
    else if (SECRET_FLAGS.has(argv[i - 1] ?? '')) add(arg);
    urlSecrets(eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : arg, add);
  }
  for (const name of SECRET_VARIABLES) add(env[name]);
  for (const name of URL_VARIABLES) {
    const value = env[name];
    if (value) urlSecrets(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`, add);
  }
  return [...found];
}

/** The user, password and secret query values of a URL (none when it is no URL). */
function urlSecrets(text: string, add: (value: string | undefined) => void): void {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return;
  }
  if (url.password) {
    const user = decodeOrKeep(url.username);
    const password = decodeOrKeep(url.password);
    for (const [u, p] of [
      [user, password],
      [url.username, url.password],
    ] as const) {
      add(p);
      add(`${u}:${p}`);
    }
  }
  for (const [name, value] of url.searchParams) if (SECRET_PARAMS.test(name)) add(value);
}

function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A text with the run's secrets taken out (as `***`), and credentials that URLs and echoed headers carry. */
export function hideRunSecrets(text: string, secrets: readonly string[]): string {
  return hideSecrets(text, secrets, '***');
}

import { ToolkitError, hideUrlSecrets } from '../errors.js';

/** Environment variables, as in `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The proxy variables of an environment, as {@link proxySettings} reads them. */
export interface ProxySettings {
  /** `http_proxy`, else `HTTP_PROXY`: the proxy of `http:` URLs (and of `https:` ones when there is no HTTPS proxy). */
  httpProxy: string | undefined;
  /** `https_proxy`, else `HTTPS_PROXY`: the proxy of `https:` URLs. */
  httpsProxy: string | undefined;
  /** `no_proxy`, else `NO_PROXY`: hosts reached directly. Empty when unset. */
  noProxy: string;
}

/**
 * The proxy settings of an environment, or undefined when it names no proxy.
 * The lower-case variable wins over the upper-case one (as in curl and
 * undici); an empty one counts as unset. A proxy without a scheme
 * (`proxy.example:3128`) is `http://`. A proxy that is not a URL is a usage
 * error naming the variable (its user and password hidden).
 */
export function proxySettings(env: Environment): ProxySettings | undefined {
  const read = (name: string): string | undefined => env[name.toLowerCase()] || env[name] || undefined;
  const httpProxy = proxyUrl('HTTP_PROXY', read('HTTP_PROXY'));
  const httpsProxy = proxyUrl('HTTPS_PROXY', read('HTTPS_PROXY'));
  if (httpProxy === undefined && httpsProxy === undefined) return undefined;
  return { httpProxy, httpsProxy, noProxy: read('NO_PROXY') ?? '' };
}

/** A proxy variable's value as a URL (`http://` added when it has no scheme); a usage error when it is none. */
function proxyUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ToolkitError(`the proxy in ${name} is not a URL: ${hideUrlSecrets(withScheme)}`, 'usage');
  }
  if (!PROXY_SCHEMES.has(url.protocol)) {
    throw new ToolkitError(
      `the proxy in ${name} must be an http, https or socks5 URL, not ${url.protocol} (${hideUrlSecrets(withScheme)})`,
      'usage',
    );
  }
  return withScheme;
}

const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks:']);

/** The global `fetch`, looked up at each call (a test's stub is used): requests go straight to their host. */
export const directFetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init);

/** undici, imported once, on the first request through a proxy (a run without one never loads it). */
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = (): Promise<typeof import('undici')> => (undici ??= import('undici'));

/** A fetch per proxy setting, each with its agent: made once, reused by every client. */
const proxiedFetches = new Map<string, typeof globalThis.fetch>();

/**
 * A `fetch` that honours the proxy variables `HTTPS_PROXY`, `HTTP_PROXY` and
 * `NO_PROXY` (and their lower-case forms) of `env`, read at each call. Node's
 * own fetch ignores them; with a proxy set, requests go through undici's
 * `EnvHttpProxyAgent` (one per setting, made once): `https:` URLs through a
 * CONNECT tunnel, `http:` URLs as absolute-form requests to the proxy (as
 * curl sends them). `NO_PROXY` is a list of host names (a name covers its
 * subdomains; a leading `.` or `*.` is ignored), each with an optional
 * `:port`, or `*` for every host; there are no address ranges. Loopback hosts
 * are no exception: `localhost` and `127.0.0.1` go through the proxy unless
 * `NO_PROXY` names them. Without any proxy variable this is the global `fetch`.
 *
 * @param env The variables. Defaults to `process.env`.
 */
export function proxyFetch(env: Environment = process.env): typeof globalThis.fetch {
  // async: a bad proxy variable rejects the call (a usage error) like any failed request, never throws in the caller's face.
  return async (input, init) => (await fetchFor(proxySettings(env)))(input, init);
}

/** The fetch of one setting (undici is loaded on the first request through a proxy: none otherwise). */
async function fetchFor(settings: ProxySettings | undefined): Promise<typeof globalThis.fetch> {
  if (!settings) return directFetch;
  const key = JSON.stringify(settings);
  const { EnvHttpProxyAgent, fetch: undiciFetch } = await loadUndici();
  let fetch = proxiedFetches.get(key);
  if (!fetch) {
    const agent = new EnvHttpProxyAgent({
      // Given explicitly (an empty string for none): the agent must not read process.env itself.
      httpProxy: settings.httpProxy ?? '',
      httpsProxy: settings.httpsProxy ?? '',
      noProxy: settings.noProxy,
      // http: URLs as absolute-form requests, not CONNECT (which proxies often allow to port 443 only).
      proxyTunnel: false,
    });
    fetch = ((input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) =>
      undiciFetch(input as Parameters<typeof undiciFetch>[0], {
        ...(init as Parameters<typeof undiciFetch>[1]),
        dispatcher: agent,
      })) as unknown as typeof globalThis.fetch;
    proxiedFetches.set(key, fetch);
  }
  return fetch;
}

/**
 * The service's endpoints as the client asks them and `serve` answers them:
 * paths, envelopes, page sizes per plan, and how each answers a query with no
 * hits. The client (`client/`) and the local service (`server/`) both read
 * this table, so they cannot drift apart.
 */

/** The plan of an API key (seed §5; page sizes and query fields depend on it). */
export type Plan = 'basic' | 'premium';

/** The plans, cheapest first. */
export const PLANS: readonly Plan[] = ['basic', 'premium'];

/** The envelope shapes: `/meta/v2/json`, `/metadata/json` and `/openaccess/json`; `/meta/v1/json`; `/metadata/v1/articles`; the JATS XML of `/openaccess/jats`. */
export type EnvelopeKind = 'v2' | 'meta-v1' | 'articles-v1' | 'jats';

/**
 * Which year's service to answer as: since 2026 (`'2026'`: a query with no
 * hits is a 404 "No data was found for the given query.", premium-only query
 * fields are refused on basic keys with a 403) or until 2024 (`'2024'`: `200`
 * with `total "0"`, every field open), as the recorded responses show it.
 */
export type ServiceCompat = '2026' | '2024';

/** The answer modes of {@link ServiceCompat}. */
export const SERVICE_COMPATS: readonly ServiceCompat[] = ['2026', '2024'];

/** The record endpoints, by the names the client and the command line use. */
export type Endpoint = 'meta-v2' | 'meta-v1' | 'metadata-v1' | 'openaccess';

/** What one endpoint is. */
export interface EndpointContract {
  /** Its path, relative to the base URL. */
  path: string;
  /** Other paths that answer the same (the older `/metadata/json` for `meta-v2`). */
  aliases: readonly string[];
  envelope: EnvelopeKind;
  /** Largest page (`p`) per plan. */
  pageSizes: Readonly<Record<Plan, number>>;
  /** It lists open-access records only. */
  openAccessOnly: boolean;
  /** Since 2026 a query with no hits is answered `404` with the no-data body (before, `200` with `total "0"`). */
  emptyIs404: boolean;
  /** How a DOI lookup is asked: `doi:<doi>` with `s` and `p`, or the v1 articles' `doi=<doi>` alone. */
  doiLookup: 'doi:' | 'doi=';
}

/** The record endpoints (seed §4; the open-access one and the 2026 answers as the service and its clients show them, issue 31). */
export const ENDPOINTS: Readonly<Record<Endpoint, EndpointContract>> = {
  'meta-v2': {
    path: '/meta/v2/json',
    aliases: ['/metadata/json'],
    envelope: 'v2',
    pageSizes: { basic: 25, premium: 100 },
    openAccessOnly: false,
    emptyIs404: true,
    doiLookup: 'doi:',
  },
  'meta-v1': {
    path: '/meta/v1/json',
    aliases: [],
    envelope: 'meta-v1',
    pageSizes: { basic: 25, premium: 100 },
    openAccessOnly: false,
    emptyIs404: false,
    doiLookup: 'doi:',
  },
  'metadata-v1': {
    path: '/metadata/v1/articles',
    aliases: [],
    envelope: 'articles-v1',
    pageSizes: { basic: 25, premium: 100 },
    openAccessOnly: false,
    emptyIs404: false,
    doiLookup: 'doi=',
  },
  openaccess: {
    path: '/openaccess/json',
    aliases: [],
    envelope: 'v2',
    pageSizes: { basic: 20, premium: 20 },
    openAccessOnly: true,
    emptyIs404: true,
    doiLookup: 'doi:',
  },
};

/**
 * Endpoints the service answers that the client does not read (they are not
 * JSON): `/openaccess/jats`, the open-access records as JATS XML, which
 * sprynger's open-access class asks. `serve` answers them.
 */
export const OTHER_ENDPOINTS: readonly EndpointContract[] = [
  {
    path: '/openaccess/jats',
    aliases: [],
    envelope: 'jats',
    pageSizes: { basic: 20, premium: 20 },
    openAccessOnly: true,
    emptyIs404: true,
    doiLookup: 'doi:',
  },
];

/** The endpoint names. */
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as Endpoint[];

/** The service's default base URL. */
export const DEFAULT_BASE_URL = 'https://api.springernature.com';

/** Largest page size of any endpoint and plan. */
export const MAX_PAGE_SIZE = Math.max(...ENDPOINT_NAMES.flatMap((e) => PLANS.map((p) => ENDPOINTS[e].pageSizes[p])));

/** Largest page of an endpoint for a plan; without a plan, the largest any plan allows. */
export function pageSizeLimit(endpoint: Endpoint, plan?: Plan): number {
  const sizes = ENDPOINTS[endpoint].pageSizes;
  return plan ? sizes[plan] : Math.max(...PLANS.map((p) => sizes[p]));
}

/** Every record endpoint the service answers, the client's and the others. */
export function allEndpoints(): EndpointContract[] {
  return [...ENDPOINT_NAMES.map((name) => ENDPOINTS[name]), ...OTHER_ENDPOINTS];
}

/** The endpoint a request path asks for (its own path or an alias); `undefined` for none. */
export function endpointAtPath(path: string): EndpointContract | undefined {
  return allEndpoints().find((contract) => contract.path === path || contract.aliases.includes(path));
}

/** Every path a record endpoint answers at. */
export function endpointPaths(): string[] {
  return allEndpoints().flatMap((contract) => [contract.path, ...contract.aliases]);
}

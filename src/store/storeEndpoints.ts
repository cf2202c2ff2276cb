import { ToolkitError, hideUrlSecrets } from '../errors.js';

/** The kinds of store whose URL conventions the loader knows. */
export type StoreKind = 'fuseki' | 'virtuoso' | 'rdf4j' | 'generic';

/** The store kinds, for help texts and validation. */
export const STORE_KINDS: readonly StoreKind[] = ['fuseki', 'virtuoso', 'rdf4j', 'generic'];

/** The URLs the loader talks to for one graph. */
export interface StoreEndpoints {
  /** Graph Store Protocol URL of the graph (`...?graph=IRI`), where chunks are POSTed. */
  graphStore: string;
  /** SPARQL Update endpoint (form POST `update=`), or `undefined` when the store has none known (generic). */
  update: string | undefined;
  /** SPARQL Query endpoint (GET `?query=`), or `undefined` when the store has none known (generic). */
  query: string | undefined;
}

/** Options of {@link storeEndpoints}. */
export interface StoreEndpointsOptions {
  /** Whether credentials will be sent: Virtuoso then uses its `-auth` endpoints (HTTP Digest). Defaults to false. */
  authenticated?: boolean;
  /** SPARQL Query endpoint to use instead of the store's convention. Defaults to the convention. */
  query?: string;
  /** SPARQL Update endpoint to use instead of the store's convention. Defaults to the convention. */
  update?: string;
}

/**
 * The Graph Store, Update and Query URLs of a store, by its URL conventions:
 *
 * | store | `endpoint` | Graph Store | Update | Query |
 * |---|---|---|---|---|
 * | fuseki | dataset URL `http://host:3030/ds` | `{ds}/data?graph=` | `{ds}/update` | `{ds}/query` |
 * | virtuoso | server URL `http://host:8890` | `/sparql-graph-crud?graph=` (`-auth` with credentials) | `/sparql` (`/sparql-auth`) | same |
 * | rdf4j | repository URL `http://host/rdf4j-server/repositories/id` | `{repo}/rdf-graphs/service?graph=` | `{repo}/statements` | `{repo}` |
 * | generic | the Graph Store URL itself | `{endpoint}?graph=` | none unless given | none unless given |
 *
 * A Fuseki endpoint given as a service URL (`.../ds/data`, `/sparql`, `/query`,
 * `/update`, `/get`) is taken back to its dataset; a Virtuoso endpoint is taken
 * to its origin. The graph is always named (a GSP request without `graph=` goes
 * to the default graph, or on some stores to a new graph).
 */
export function storeEndpoints(
  store: StoreKind,
  endpoint: string,
  graph: string,
  options: StoreEndpointsOptions = {},
): StoreEndpoints {
  const url = httpUrl('`endpoint`', endpoint);
  // Credentials go apart (StoreEndpointsOptions' caller passes them): fetch refuses a URL that holds them.
  const query = options.query ? withoutUserinfo(httpUrl('`queryEndpoint`', options.query)) : undefined;
  const update = options.update ? withoutUserinfo(httpUrl('`updateEndpoint`', options.update)) : undefined;
  url.username = '';
  url.password = '';
  url.hash = '';
  // A query string the user gave (a key the store's proxy wants, say) goes on every URL; the
  // graph parameters of the Graph Store Protocol (?default, ?graph=) are ours to set.
  const extra = new URLSearchParams(url.search);
  extra.delete('graph');
  extra.delete('default');
  url.search = '';
  const at = (base: string) => {
    const u = new URL(base);
    for (const [k, v] of extra) u.searchParams.append(k, v);
    return u.toString();
  };
  const withGraph = (base: string) => {
    const u = new URL(at(base));
    u.searchParams.set('graph', graph);
    return u.toString();
  };
  const trimmed = url.toString().replace(/\/+$/, '');
  let result: StoreEndpoints;
  switch (store) {
    case 'fuseki': {
      const dataset = trimmed.replace(/\/(data|sparql|query|update|get)$/, '');
      result = {
        graphStore: withGraph(`${dataset}/data`),
        update: at(`${dataset}/update`),
        query: at(`${dataset}/query`),
      };
      break;
    }
    case 'virtuoso': {
      // Virtuoso's endpoints are at the server's root: a path other than theirs is a mistake, not a place to load into.
      if (!/^\/?$|^\/(sparql|sparql-auth|sparql-graph-crud|sparql-graph-crud-auth)\/?$/.test(url.pathname)) {
        throw new ToolkitError(
          `a Virtuoso endpoint is the server's URL (http://host:8890), not ${url.pathname} under it: ${url.origin}`,
          'usage',
        );
      }
      const suffix = options.authenticated ? '-auth' : '';
      result = {
        graphStore: withGraph(`${url.origin}/sparql-graph-crud${suffix}`),
        update: at(`${url.origin}/sparql${suffix}`),
        query: at(`${url.origin}/sparql${suffix}`),
      };
      break;
    }
    case 'rdf4j': {
      const repo = trimmed.replace(/\/(rdf-graphs(\/service)?|statements)$/, '');
      if (!/\/repositories\/[^/]+$/.test(new URL(repo).pathname)) {
        throw new ToolkitError(
          `an rdf4j endpoint is a repository URL ending in /repositories/<id>: ${hideUrlSecrets(endpoint)}`,
          'usage',
        );
      }
      result = {
        graphStore: withGraph(`${repo}/rdf-graphs/service`),
        update: at(`${repo}/statements`),
        query: at(repo),
      };
      break;
    }
    case 'generic':
      result = { graphStore: withGraph(url.toString()), update: undefined, query: undefined };
      break;
    default:
      throw new ToolkitError(`unknown store "${String(store)}": choose one of ${STORE_KINDS.join(', ')}`, 'usage');
  }
  if (query) result.query = query;
  if (update) result.update = update;
  return result;
}

/** A URL's text without `user:password@`. */
function withoutUserinfo(url: URL): string {
  url.username = '';
  url.password = '';
  return url.toString();
}

/** A user's URL option as a URL; a usage error naming the option when it is none or not http(s). */
function httpUrl(option: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ToolkitError(`${option} is not a URL: ${hideUrlSecrets(value)}`, 'usage');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolkitError(`${option} must be an http(s) URL: ${hideUrlSecrets(value)}`, 'usage');
  return url;
}

/** Parses a user's store name. Throws a usage error naming the choices. */
export function parseStoreKind(name: string): StoreKind {
  const kind = name.trim().toLowerCase();
  if ((STORE_KINDS as readonly string[]).includes(kind)) return kind as StoreKind;
  if (kind === 'graphdb') return 'rdf4j';
  throw new ToolkitError(`unknown store "${name}": choose one of ${STORE_KINDS.join(', ')}`, 'usage');
}

import { describe, expect, it } from 'vitest';
import { parseStoreKind, storeEndpoints } from '../../src/store/storeEndpoints.js';

const G = 'https://w3id.org/scholarly-rdf/graph/x';
const Q = `graph=${encodeURIComponent(G)}`;

describe('storeEndpoints', () => {
  it('follows Fuseki: {dataset}/data?graph=, /update, /query', () => {
    expect(storeEndpoints('fuseki', 'http://localhost:3030/ds', G)).toEqual({
      graphStore: `http://localhost:3030/ds/data?${Q}`,
      update: 'http://localhost:3030/ds/update',
      query: 'http://localhost:3030/ds/query',
    });
  });

  it('takes a Fuseki service URL back to its dataset', () => {
    for (const service of ['data', 'sparql', 'query', 'update', 'get']) {
      expect(storeEndpoints('fuseki', `http://localhost:3030/ds/${service}/`, G).graphStore).toBe(
        `http://localhost:3030/ds/data?${Q}`,
      );
    }
  });

  it('follows Virtuoso, with the -auth endpoints when credentials are sent', () => {
    expect(storeEndpoints('virtuoso', 'http://127.0.0.1:8890/sparql', G)).toEqual({
      graphStore: `http://127.0.0.1:8890/sparql-graph-crud?${Q}`,
      update: 'http://127.0.0.1:8890/sparql',
      query: 'http://127.0.0.1:8890/sparql',
    });
    expect(storeEndpoints('virtuoso', 'http://127.0.0.1:8890', G, { authenticated: true })).toEqual({
      graphStore: `http://127.0.0.1:8890/sparql-graph-crud-auth?${Q}`,
      update: 'http://127.0.0.1:8890/sparql-auth',
      query: 'http://127.0.0.1:8890/sparql-auth',
    });
  });

  it('refuses a Virtuoso endpoint with a path of its own (it would be dropped)', () => {
    expect(storeEndpoints('virtuoso', 'http://127.0.0.1:8890/sparql-graph-crud/', G).graphStore).toBe(
      `http://127.0.0.1:8890/sparql-graph-crud?${Q}`,
    );
    expect(() => storeEndpoints('virtuoso', 'http://127.0.0.1:8890/nope', G)).toThrow(
      expect.objectContaining({
        code: 'usage',
        message: expect.stringContaining("a Virtuoso endpoint is the server's URL"),
      }),
    );
  });

  it('follows RDF4J/GraphDB: /repositories/{id}/rdf-graphs/service?graph=', () => {
    expect(storeEndpoints('rdf4j', 'http://localhost:8080/rdf4j-server/repositories/scholarly', G)).toEqual({
      graphStore: `http://localhost:8080/rdf4j-server/repositories/scholarly/rdf-graphs/service?${Q}`,
      update: 'http://localhost:8080/rdf4j-server/repositories/scholarly/statements',
      query: 'http://localhost:8080/rdf4j-server/repositories/scholarly',
    });
    expect(() => storeEndpoints('rdf4j', 'http://localhost:8080/rdf4j-server', G)).toThrow(/repositories/);
  });

  it('takes a generic Graph Store URL as given, always naming the graph, with no SPARQL endpoints unless given', () => {
    expect(storeEndpoints('generic', 'http://h/store?x=1', G)).toEqual({
      graphStore: `http://h/store?x=1&${Q}`,
      update: undefined,
      query: undefined,
    });
    expect(storeEndpoints('generic', 'http://h/store', G, { query: 'http://h/q', update: 'http://h/u' })).toMatchObject(
      { query: 'http://h/q', update: 'http://h/u' },
    );
  });

  it('never keeps credentials of the URL and refuses what is not http(s)', () => {
    expect(storeEndpoints('fuseki', 'http://u:secret@localhost:3030/ds', G).graphStore).not.toContain('secret');
    const given = storeEndpoints('fuseki', 'http://localhost:3030/ds', G, {
      query: 'http://u:secret@h/q',
      update: 'http://u:secret@h/u',
    });
    expect([given.query, given.update]).toEqual(['http://h/q', 'http://h/u']);
    expect(() => storeEndpoints('fuseki', 'http://u:pa ss-secret@h ost/ds', G)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('ss-secret') }),
    );
    expect(() => storeEndpoints('fuseki', 'localhost:3030/ds', G)).toThrow(expect.objectContaining({ code: 'usage' }));
    expect(() => storeEndpoints('fuseki', 'not a url', G)).toThrow(expect.objectContaining({ code: 'usage' }));
  });

  it('puts a query string of the endpoint on every URL, the graph parameters excepted', () => {
    expect(storeEndpoints('fuseki', 'http://localhost:3030/ds/data?default&key=k1', G)).toEqual({
      graphStore: `http://localhost:3030/ds/data?key=k1&${Q}`,
      update: 'http://localhost:3030/ds/update?key=k1',
      query: 'http://localhost:3030/ds/query?key=k1',
    });
    expect(storeEndpoints('virtuoso', 'http://127.0.0.1:8890/?t=1', G).query).toBe('http://127.0.0.1:8890/sparql?t=1');
  });

  it('checks --query-endpoint and --update-endpoint as it checks --endpoint', () => {
    expect(() => storeEndpoints('virtuoso', 'http://localhost:8890', G, { query: 'x' })).toThrow(
      /^`queryEndpoint` is not a URL: x$/,
    );
    expect(() => storeEndpoints('virtuoso', 'http://localhost:8890', G, { update: 'ftp://h/u' })).toThrow(
      /^`updateEndpoint` must be an http\(s\) URL/,
    );
    expect(storeEndpoints('generic', 'http://localhost/gsp', G, { query: 'http://localhost/q' }).query).toBe(
      'http://localhost/q',
    );
  });
});

describe('parseStoreKind', () => {
  it('knows the four kinds and GraphDB as rdf4j', () => {
    expect(parseStoreKind('Virtuoso')).toBe('virtuoso');
    expect(parseStoreKind('graphdb')).toBe('rdf4j');
    expect(() => parseStoreKind('blazegraph')).toThrow(/fuseki, virtuoso, rdf4j, generic/);
  });
});

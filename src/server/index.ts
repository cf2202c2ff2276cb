export { createServer, SEARCH_ENDPOINTS } from './createServer.js';
export { startServer, closeServer, type StartServerOptions, type RunningServer } from './startServer.js';
export { sampleCatalogueOptions } from './sampleCatalogueOptions.js';
export {
  SAMPLE_API_KEY,
  PLAN_PAGE_LIMITS,
  type ServeOptions,
  type FaultOptions,
  type ApiKeySpec,
  type KeyPlan,
  type ServiceCompat,
  SERVICE_COMPATS,
} from './ServeOptions.js';
export { Catalogue, loadCatalogue, type CatalogueSource } from './Catalogue.js';
export { FACET_NAMES, type FacetName, type FacetValue } from './FacetIndex.js';
export {
  parseQuery,
  QuerySyntaxError,
  QUERY_FIELDS,
  type QueryNode,
  type QueryField,
  type TermNode,
  type ParseQueryOptions,
} from './parseQuery.js';
export { evaluateQuery } from './evaluateQuery.js';
export { loadCatalogueInParallel, type LoadCatalogueOptions } from './loadCatalogueInParallel.js';
export { FaultInjector, type FaultDecision } from './FaultInjector.js';
export { parseKeySpec, readKeysFile } from './apiKeys.js';

// The store room's door for the public entry point (src/index.ts): the types a caller of loadDump names.
export type { StoreKind } from './storeEndpoints.js';
export type { StoreCredentials, StoreRequestEvent } from './StoreHttpClient.js';

/**
 * The bodies the service answers with besides records: the 401 byte for byte
 * as the real service sends it, the 2026 "no data" 404, and the others in its
 * `{"status":"Fail","message":…}` form with the messages it uses. `serve`
 * sends them; the client recognises them (the no-data 404 is an empty
 * result, a 403 saying "premium feature" is a plan limit).
 */

/** The real 401 body (the same for a missing and a wrong key). */
export const UNAUTHORIZED_BODY =
  '{"status": "Fail","message": "Authentication failed. API key is invalid or missing","error": {"error": "Unauthorized", "error_description": "API key is invalid or missing. Ensure that a valid API key is included in the request URL."}}';

/** The message of the 2026 404 for a query with no hits. */
export const NO_DATA_MESSAGE = 'No data was found for the given query.';

/** The 2026 404 body of a query with no hits, as the service sends it. */
export const NO_DATA_BODY = JSON.stringify({ status: 'Fail', message: NO_DATA_MESSAGE });

/** Message of a 400 for a bad `s`, `p`, `callback` or query string. */
export const INVALID_PARAMETERS = 'Invalid parameters found';

/** Message of a 400 for a missing `q`. */
export const MISSING_Q = "Missing required query parameter: 'q'";

/** A JSON error body: `{"status":"Fail","message":…,"error":{"error":…,"error_description":…}}`. */
export function errorBody(
  message: string,
  error: string,
  description: string,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({ status: 'Fail', message, error: { error, error_description: description }, ...extra });
}

/** The 403 body for a page size beyond the key's plan. */
export function premiumPageSizeBody(p: number, limit: number, plan: string): string {
  return errorBody(
    `Page size p=${p} is a premium feature: your ${plan} plan allows at most ${limit} records per page`,
    'Forbidden',
    plan === 'premium'
      ? `The largest page size is ${limit}.`
      : `Basic keys may ask for at most ${limit} records per page; a premium key allows more.`,
  );
}

/** The 403 body for a query field a basic key may not use. */
export function premiumFieldBody(field: string): string {
  return errorBody(
    `Access to this premium feature is restricted: the query field '${field}' needs a premium plan`,
    'Forbidden',
    `The field ${field}: is available to premium keys only.`,
  );
}

/** The 429 body. */
export function tooManyRequestsBody(retryAfter: number): string {
  return errorBody('Too many requests', 'Too Many Requests', `Rate limit exceeded; retry after ${retryAfter} s.`);
}

/** Whether a 404's body is the service's "no data" answer (an empty result), not a wrong path or host. */
export function isNoDataBody(body: string): boolean {
  return body.includes(NO_DATA_MESSAGE);
}

/** Whether a 403's body says the request is beyond the key's plan ("premium feature"), not that the quota is spent or the key throttled. */
export function isPlanLimitBody(body: string): boolean {
  return /premium/i.test(body);
}

/**
 * Error bodies of the service. The 401 body is byte for byte the one the real
 * service sends; the others follow its `{"status":"Fail","message":…}` form
 * with the messages the real service uses.
 */

/** The real 401 body (the same for a missing and a wrong key). */
export const UNAUTHORIZED_BODY =
  '{"status": "Fail","message": "Authentication failed. API key is invalid or missing","error": {"error": "Unauthorized", "error_description": "API key is invalid or missing. Ensure that a valid API key is included in the request URL."}}';

/** Message of a 400 for a bad `s`, `p`, `callback` or query string. */
export const INVALID_PARAMETERS = 'Invalid parameters found';

/** Message of a 400 for a missing `q`. */
export const MISSING_Q = "Missing required query parameter: 'q'";

/** A JSON error body: `{"status":"Fail","message":…,"error":{"error":…,"error_description":…}}`. */
export function errorBody(message: string, error: string, description: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ status: 'Fail', message, error: { error, error_description: description }, ...extra });
}

/** The 403 body for a page size beyond the key's plan. */
export function premiumBody(p: number, limit: number, plan: string): string {
  return errorBody(
    `Page size p=${p} is a premium feature: your ${plan} plan allows at most ${limit} records per page`,
    'Forbidden',
    plan === 'premium'
      ? `The largest page size is ${limit}.`
      : `Basic keys may ask for at most ${limit} records per page; a premium key allows up to 100.`,
  );
}

/** The 429 body. */
export function tooManyRequestsBody(retryAfter: number): string {
  return errorBody('Too many requests', 'Too Many Requests', `Rate limit exceeded; retry after ${retryAfter} s.`);
}

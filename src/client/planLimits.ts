import { HttpError } from '../errors.js';
import { ENDPOINTS, type Endpoint, type Plan } from '../contract/endpoints.js';
import { describeRefusedTerms, refusedTerms } from '../contract/queryFields.js';
import { serviceMessageOf } from '../http/RetryPolicy.js';

/** Why the service refused a request as beyond the key's plan. */
export type PlanLimitKind = 'page-size' | 'query-field' | 'other';

/** What a query would be refused for on a plan (its premium-only fields and their basic alternatives), or `undefined`. */
export function queryRefusal(query: string, plan: Plan): string | undefined {
  const refused = refusedTerms(query, plan);
  return refused.length > 0 ? describeRefusedTerms(refused) : undefined;
}

/**
 * The error of a 403 "premium feature", told by what the request asked:
 * a page larger than a basic key's (details `limit: 'page-size'` and the
 * `pageSize` it allows: a harvest lowers its page size to that and goes on),
 * else the query's premium-only fields (`limit: 'query-field'`, naming them
 * and the basic field to use instead), else the service's message alone.
 */
export function planLimitError(args: {
  request: { q: string; p: number };
  endpoint: Endpoint;
  body: string;
  url: string;
  redact: (text: string) => string;
}): HttpError {
  const { request, endpoint } = args;
  const said = serviceMessageOf(args.body);
  const service = `403${said ? `: ${said}` : ''}`;
  const basic = ENDPOINTS[endpoint].pageSizes.basic;
  let kind: PlanLimitKind = 'other';
  let message: string;
  const details: Record<string, unknown> = {};
  if (request.p > basic) {
    kind = 'page-size';
    details['pageSize'] = basic;
    message = `the page size ${request.p} is beyond the key's plan (${service}): a basic key allows at most ${basic} records a page; lower \`pageSize\``;
  } else {
    const refusal = queryRefusal(request.q, 'basic');
    if (refusal) kind = 'query-field';
    message = refusal ? `${refusal} (${service})` : `the request is beyond the API key's plan (${service})`;
  }
  return new HttpError(args.redact(`${message} [GET ${args.url}]`), 'plan-limit', args.url, 403, false, {
    details: { ...details, limit: kind, ...(said ? { serviceMessage: args.redact(said) } : {}) },
  });
}

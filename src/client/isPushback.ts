import { isPlanLimitBody } from '../contract/statusBodies.js';
import type { RequestOutcome } from '../http/RetryPolicy.js';

/** Whether an outcome is the service pushing back (429, a 403 that is no plan limit, a 5xx): a sign to send less at once. */
export function isPushback(outcome: RequestOutcome): outcome is Extract<RequestOutcome, { kind: 'status' }> {
  if (outcome.kind !== 'status') return false;
  const { status } = outcome;
  return status === 429 || status >= 500 || (status === 403 && !isPlanLimitBody(outcome.body));
}

/** Content type of the JSON answers. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Content type of the JSONP answers (a search with `callback`). */
export const JSONP_TYPE = 'application/javascript; charset=utf-8';

/** An answer of the service before it is written. */
export interface Answer {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

/** A JSON answer. */
export function jsonAnswer(status: number, body: string, headers?: Record<string, string>): Answer {
  return { status, body, contentType: JSON_TYPE, ...(headers ? { headers } : {}) };
}

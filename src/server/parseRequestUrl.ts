/** A request target split into a decoded path and decoded query parameters. */
export interface RequestUrl {
  path: string;
  /** First value of each parameter, decoded (`+` is a space). */
  params: Map<string, string>;
}

/**
 * Splits and decodes a request target (`/meta/v2/json?q=year%3A2015&p=10`).
 * Throws `URIError` on bad percent-encoding (`%zz`, `%E0%A4`), which the
 * server answers with a 400. The first of repeated parameters wins. Repeated
 * slashes in the path count as one (`//meta//v2/json`), as common front ends
 * (nginx's `merge_slashes`, Apache) treat them.
 */
export function parseRequestUrl(target: string): RequestUrl {
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const rawQuery = q < 0 ? '' : target.slice(q + 1);
  const hash = rawQuery.indexOf('#');
  const query = hash < 0 ? rawQuery : rawQuery.slice(0, hash);
  const path = decodeURIComponent(rawPath.replace(/\/{2,}/g, '/'));
  const params = new Map<string, string>();
  if (query !== '') {
    for (const part of query.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const name = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
      const value = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
      if (!params.has(name)) params.set(name, value);
    }
  }
  return { path, params };
}

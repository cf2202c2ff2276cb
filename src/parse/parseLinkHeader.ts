/** One link of an HTTP `Link` header (RFC 8288). */
export interface HeaderLink {
  /** The target, resolved against the response URL. */
  url: string;
  /** Link relation types, lower case (`alternate`, `describedby`, ...). */
  rel: string[];
  /** The `type` parameter (a media type), when given. */
  type?: string;
}

/**
 * Parses an HTTP `Link` header: `<a.ttl>; rel="alternate"; type="text/turtle", <b>; rel=next`.
 * Targets are resolved against `baseUrl`; malformed links are skipped.
 */
export function parseLinkHeader(header: string | null | undefined, baseUrl: string): HeaderLink[] {
  if (!header) return [];
  const links: HeaderLink[] = [];
  const re = /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)/g;
  for (const m of header.matchAll(re)) {
    let url: string;
    try {
      url = new URL(m[1]!.trim(), baseUrl).href;
    } catch {
      continue;
    }
    const params = new Map<string, string>();
    for (const p of m[2]!.matchAll(/;\s*([^;,=\s]+)(?:\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]*)))?/g)) {
      const key = p[1]!.toLowerCase();
      if (!params.has(key)) params.set(key, (p[2] ?? p[3] ?? '').replace(/\\(.)/g, '$1'));
    }
    const rel = (params.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const type = params.get('type');
    links.push(type ? { url, rel, type } : { url, rel });
  }
  return links;
}

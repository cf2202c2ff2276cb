import { formatInfo } from '../formats.js';

/** What an HTML page offers as RDF: embedded JSON-LD, and `<link rel="alternate">` targets. */
export interface HtmlRdf {
  /** The text of each `<script type="application/ld+json">` block, in page order. */
  jsonLdScripts: string[];
  /** `<link rel="alternate" type="..." href="...">` elements (href as written, maybe relative). */
  alternates: { href: string; type: string }[];
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const LINK = /<link\b([^>]*?)\/?>/gi;

/**
 * Finds the RDF an HTML page carries: JSON-LD script blocks (what schema.org
 * term pages and most publishers embed) and alternate links to RDF documents.
 * A small scanner, not an HTML parser: enough for `<script>` and `<link>`
 * elements, which cannot nest. Comments are removed first.
 */
export function extractHtmlRdf(html: string): HtmlRdf {
  const text = html.replace(/<!--[\s\S]*?-->/g, '');
  const jsonLdScripts: string[] = [];
  for (const m of text.matchAll(SCRIPT)) {
    const type = attribute(m[1]!, 'type');
    if (type && type.split(';')[0]!.trim().toLowerCase() === formatInfo('jsonld').mediaType) {
      const body = m[2]!
        .trim()
        .replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1')
        .trim();
      if (body !== '') jsonLdScripts.push(body);
    }
  }
  const alternates: { href: string; type: string }[] = [];
  for (const m of text.matchAll(LINK)) {
    const rel = attribute(m[1]!, 'rel');
    const href = attribute(m[1]!, 'href');
    const type = attribute(m[1]!, 'type');
    if (rel && href && type && rel.toLowerCase().split(/\s+/).includes('alternate'))
      alternates.push({ href: decodeEntities(href), type });
  }
  return { jsonLdScripts, alternates };
}

function attribute(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(attrs);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

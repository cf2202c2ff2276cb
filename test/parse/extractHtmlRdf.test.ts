import { describe, expect, it } from 'vitest';
import { extractHtmlRdf } from '../../src/parse/extractHtmlRdf.js';

describe('extractHtmlRdf', () => {
  it('finds JSON-LD scripts (any attribute order, type parameters, CDATA) and skips other scripts and comments', () => {
    const html = `<html><head>
      <script>var x = 1;</script>
      <script type="application/ld+json">{"@id": "a"}</script>
      <script id="s" type='application/ld+json; charset=utf-8'>
        <![CDATA[ {"@id": "b"} ]]>
      </script>
      <!-- <script type="application/ld+json">{"@id": "commented"}</script> -->
      <script type="text/javascript">{"@id": "js"}</script>
    </head></html>`;
    expect(extractHtmlRdf(html).jsonLdScripts).toEqual(['{"@id": "a"}', '{"@id": "b"}']);
  });

  it('finds <link rel="alternate"> elements with a type', () => {
    const html = `<head><link rel="stylesheet" href="a.css" type="text/css">
      <link href="p.ttl?a=1&amp;b=2" rel="alternate" type="text/turtle"/>
      <link rel="alternate" hreflang="de" href="/de/"></head>`;
    expect(extractHtmlRdf(html).alternates).toEqual([{ href: 'p.ttl?a=1&b=2', type: 'text/turtle' }]);
  });
});

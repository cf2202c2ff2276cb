import type { Command } from 'commander';
import type { SearchPage } from '../../client/ApiClientOptions.js';
import type { CliContext } from '../CliContext.js';
import { type ConnectionOptions, connect, envApiKeys, keySafe } from '../connection.js';
import { addCommandOptions } from '../options/optionTable.js';
import { printable } from '../printable.js';

/** Registers `search`: one page of a query, for a person. */
export function registerSearch(program: Command, ctx: CliContext): void {
  const searchCmd = program
    .command('search')
    .description('show one page of a query: title, DOI and date of each record, the total and the facets');
  addCommandOptions(searchCmd, 'search', (line) => ctx.log(line)).action(
    async (opts: ConnectionOptions & { query: string; start: number; pageSize: number; json?: boolean }) => {
      let key: string | undefined;
      await keySafe(
        () => [key, opts.apiKey, ...envApiKeys(ctx)],
        async () => {
          const connection = await connect(opts, ctx);
          key = connection.key;
          try {
            const page = await connection.client.fetchPage(
              { q: opts.query, s: opts.start, p: opts.pageSize },
              ctx.signal,
            );
            if (opts.json) {
              ctx.io.stdout.write(`${connection.client.redact(JSON.stringify(page.envelope, null, 2))}\n`);
              return;
            }
            ctx.io.stdout.write(printable(connection.client.redact(formatSearchPage(page))));
          } finally {
            await connection.close();
          }
        },
      );
    },
  );
}

/** The readable form of a search page: a table of title, DOI and date, then the total and the facets. */
export function formatSearchPage(page: SearchPage): string {
  const rows = page.records.map((r) => {
    const str = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : '');
    return {
      title: str('title').replace(/\s+/g, ' ').trim(),
      doi: str('doi') || str('identifier').replace(/^doi:/, ''),
      date: str('onlineDate') || str('publicationDate'),
    };
  });
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
  const titleWidth = Math.min(60, Math.max(5, ...rows.map((r) => r.title.length)));
  const doiWidth = Math.max(3, ...rows.map((r) => r.doi.length));
  const line = (a: string, b: string, c: string) =>
    `${clip(a, titleWidth).padEnd(titleWidth)}  ${b.padEnd(doiWidth)}  ${c}`.trimEnd();
  const out: string[] = [];
  if (rows.length > 0) {
    out.push(line('TITLE', 'DOI', 'DATE'));
    for (const r of rows) out.push(line(r.title, r.doi, r.date));
    out.push('');
  }
  const total = page.total ?? 0;
  out.push(
    rows.length > 0
      ? `records ${page.start}-${page.start + rows.length - 1} of ${total.toLocaleString('en-US')}`
      : `no records from ${page.start} (the service reports total ${page.total ?? 'unknown'})`,
  );
  for (const facet of page.facets) {
    if (!facet.values?.length) continue;
    const values = facet.values
      .slice(0, 8)
      .map((v) => `${v.value} (${v.count})`)
      .join(', ');
    out.push(`${facet.name}: ${values}${facet.values.length > 8 ? ', …' : ''}`);
  }
  return `${out.join('\n')}\n`;
}

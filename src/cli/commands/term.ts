import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Argument, type Command } from 'commander';
import type * as RDF from '@rdfjs/types';
import type { CliContext } from '../CliContext.js';
import { addCommandOptions } from '../options/optionTable.js';
import { ToolkitError } from '../../errors.js';
import { FORMATS, formatInfo, parseFormatName, type FormatName } from '../../formats.js';
import { DEFAULT_PREFIXES } from '../../rdf/prefixes.js';
import { serializerFor } from '../../serialize/serializers.js';
import { preferredFormat, TERM_FORMATS, toAcceptHeader } from '../../vocabulary/acceptHeader.js';
import { fetchTerm, type FetchedTerm } from '../../vocabulary/fetchTerm.js';
import { loadShippedTerm, shippedTermPath } from '../../vocabulary/loadShippedTerm.js';
import { refuseOverwritingInputs } from '../../tasks/refuseOverwritingInputs.js';
import { envFetch } from '../connection.js';

/** The options of `scholarly-rdf term`, as commander gives them. */
interface TermCommandOptions {
  vocabUrl: string;
  accept?: string;
  format?: string;
  output?: string;
  offline?: boolean;
  check?: boolean;
  timeout: number;
  fallback: boolean;
  json?: boolean;
}

/** Prefixes for writing a term: the toolkit's, plus SciGraph's core ontology (the term's `sdDataset`). */
export const TERM_PREFIXES: Readonly<Record<string, string>> = {
  ...DEFAULT_PREFIXES,
  sgo: 'http://scigraph.springernature.com/ontologies/core/',
};

/** Registers `scholarly-rdf term`: fetch, convert and check a vocabulary term. */
export function registerTerm(program: Command, ctx: CliContext): void {
  const command = program
    .command('term')
    .description(
      'Fetch a vocabulary term by content negotiation (JSON-LD, N-Triples, Turtle or RDF/XML), print it in any format, or check that every format gives the same graph.',
    )
    .addArgument(new Argument('[name]', 'the term').default('pagination', 'pagination'));
  addCommandOptions(command, 'term', (line) => ctx.log(line)).action(
    async (name: string, options: TermCommandOptions, command: Command) => {
      if (options.json) ctx.json.enable('term', options.output !== undefined || options.check ? 'stdout' : 'stderr');
      if (options.offline && command.getOptionValueSource('vocabUrl') === 'cli') {
        throw new ToolkitError(
          '--offline reads the shipped copy in vocab/: drop --vocab-url, or --offline to fetch it',
          'usage',
        );
      }
      const timeoutMs = options.timeout * 1000;
      const format = options.format === undefined ? undefined : parseFormatName(options.format);
      const output = options.output === undefined ? undefined : resolve(ctx.io.cwd, options.output);
      // The shipped copies are what --offline reads: -o must not write over one of them.
      if (output !== undefined) refuseOverwritingInputs([{ path: output, what: '-o' }], shippedFiles(name));
      const viaProxy = options.offline ? undefined : envFetch(ctx);
      const get = (accept: string | undefined): Promise<FetchedTerm> =>
        options.offline
          ? loadShippedTerm(name, accept === undefined ? 'jsonld' : (preferredFormat(toAcceptHeader(accept)) ?? accept))
          : fetchTerm(name, {
              vocabUrl: options.vocabUrl,
              accept,
              signal: ctx.signal,
              timeoutMs,
              fallbackExtensions: options.fallback,
              ...(viaProxy ? { fetch: viaProxy } : {}),
            });
      if (options.check) {
        if (format !== undefined || options.output !== undefined || options.accept !== undefined) {
          throw new ToolkitError(
            '--check fetches all four formats and writes a report: drop --accept, -f and -o',
            'usage',
          );
        }
        await check(name, get, ctx, options.offline ? 'vocab/' : options.vocabUrl);
        return;
      }
      const term = await get(options.accept);
      for (const note of term.notes) ctx.log(`term: ${note}`);
      ctx.log(
        `term: ${term.url}: ${term.quads.length} triples (${formatInfo(term.format).label}${term.via === 'negotiation' || term.via === 'shipped' ? '' : `, via ${term.via}`})`,
      );
      const text = format === undefined ? term.body : serialize(term.quads, format);
      if (output !== undefined) {
        try {
          await writeFile(output, text, 'utf8');
        } catch (cause) {
          throw new ToolkitError(`cannot write ${output}: ${(cause as Error).message}`, 'io', { cause });
        }
      } else {
        ctx.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      }
      ctx.json.set({
        name,
        url: term.url,
        mediaType: term.mediaType,
        format: term.format,
        via: term.via,
        triples: term.quads.length,
        notes: term.notes,
        output: output ?? null,
        outputFormat: format ?? term.format,
      });
    },
  );
}

/** The shipped copies of a term in `vocab/` (none for a name that is not one). */
function shippedFiles(name: string): string[] {
  try {
    return FORMATS.filter((f) => TERM_FORMATS.includes(f.format)).map((f) => shippedTermPath(name, f.format));
  } catch {
    return []; // not a term name: said when the term is fetched
  }
}

/** Writes quads in a format with the serialisers (one group: a term is small). */
export function serialize(quads: readonly RDF.Quad[], format: FormatName): string {
  const writer = serializerFor(format).createWriter({ prefixes: TERM_PREFIXES });
  return writer.start() + writer.write(quads) + writer.end();
}

/** `term --check`: the library's {@link checkTerm}, as a report on stdout (or the `--json` object); exit 1 unless all is well. */
async function check(
  name: string,
  get: (accept: string) => Promise<FetchedTerm>,
  ctx: CliContext,
  where: string,
): Promise<void> {
  const { checkTerm } = await import('../../vocabulary/checkTerm.js');
  const result = await checkTerm(name, get);
  // With --json, the report is the JSON object instead of these lines.
  const out = (line: string) => (ctx.json.enabled ? undefined : ctx.io.stdout.write(`${line}\n`));
  const failed = result.formats.filter((r) => !r.term).length;
  ctx.json.set({ name, where, formats: result.formats.map(formatJson) });
  out(`term ${name} at ${where}`);
  for (const r of result.formats) {
    if (r.term) {
      const t = r.term;
      const served = t.mediaType === r.asked ? '' : `, got ${formatInfo(t.format).label}`;
      const via = t.via === 'negotiation' || t.via === 'shipped' ? '' : ` via ${t.via}`;
      out(`  ${r.asked.padEnd(22)} ${String(t.quads.length).padStart(4)} triples  ${t.url}${served}${via}`);
    } else {
      out(`  ${r.asked.padEnd(22)} error: ${r.error!.message}`);
    }
  }
  // A format the service did not serve as asked was not checked: the service does not negotiate it.
  if (result.notServed.length > 0)
    out(
      `content negotiation: ${result.notServed.length} of ${result.formats.length} format(s) not served as asked (${result.notServed.join(', ')})`,
    );
  ctx.json.set({ servedAsAsked: result.notServed.length === 0 });
  if (result.reference === undefined) {
    ctx.json.set({ agree: false, failed, sameAsShipped: null });
    out(`formats agree: no (${failed} failed)`);
    ctx.setExitCode(1);
    return;
  }
  for (const d of result.differences) {
    out(`  ${d.asked} differs from ${result.reference}:`);
    printDiff(out, d.onlyInFirst, d.onlyInSecond);
  }
  out(`formats agree: ${result.agree ? 'yes' : 'no'}${failed > 0 ? ` (${failed} failed)` : ''}`);
  ctx.json.set({ agree: result.agree, failed, sameAsShipped: null });
  if (result.shipped && 'missing' in result.shipped) out(`shipped copy: none (${result.shipped.missing})`);
  if (result.shipped && 'unlike' in result.shipped) {
    const { unlike } = result.shipped;
    out(
      `same as the shipped copy (vocab/${name}): ${unlike.length === 0 ? 'yes' : `no (${unlike.map((d) => d.asked).join(', ')})`}`,
    );
    ctx.json.set({ sameAsShipped: unlike.length === 0 });
    for (const d of unlike) {
      out(`  + only in ${d.asked} from ${where}, - only in the shipped copy:`);
      printDiff(out, d.onlyInFirst, d.onlyInSecond);
    }
  }
  if (!result.ok) ctx.setExitCode(1);
}

/** One format of `term --check --json`: what came back, or the error. */
function formatJson(r: { asked: string; term?: FetchedTerm; error?: Error }): Record<string, unknown> {
  if (!r.term) return { asked: r.asked, error: r.error!.message };
  return {
    asked: r.asked,
    mediaType: r.term.mediaType,
    triples: r.term.quads.length,
    url: r.term.url,
    via: r.term.via,
  };
}

function printDiff(out: (line: string) => void, added: readonly string[], removed: readonly string[]): void {
  for (const line of added) out(`    + ${line}`);
  for (const line of removed) out(`    - ${line}`);
}

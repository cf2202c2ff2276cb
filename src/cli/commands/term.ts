import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Argument, type Command } from 'commander';
import type * as RDF from '@rdfjs/types';
import type { CliContext } from '../CliContext.js';
import { OPTION_TABLE, addCommandOptions } from '../options/optionTable.js';
import { ToolkitError } from '../../errors.js';
import { FORMATS, formatInfo, parseFormatName } from '../../formats.js';
import type { FormatName } from '../../serialize/QuadSerializer.js';
import { DEFAULT_PREFIXES } from '../../rdf/prefixes.js';
import { serializerFor } from '../../serialize/serializers.js';
import { preferredFormat, TERM_MEDIA_TYPES, toAcceptHeader } from '../../vocabulary/acceptHeader.js';
import { DEFAULT_VOCAB_URL, fetchTerm, type FetchedTerm } from '../../vocabulary/fetchTerm.js';
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
  addCommandOptions(command, 'term', (line) => ctx.log(line))
    .action(async (name: string, options: TermCommandOptions, command: Command) => {
      if (options.json) ctx.json.enable('term', options.output !== undefined || options.check ? 'stdout' : 'stderr');
      if (options.offline && command.getOptionValueSource('vocabUrl') === 'cli') {
        throw new ToolkitError('--offline reads the shipped copy in vocab/: drop --vocab-url, or --offline to fetch it', 'usage');
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
          throw new ToolkitError('--check fetches all four formats and writes a report: drop --accept, -f and -o', 'usage');
        }
        await check(name, get, ctx, options.offline ? 'vocab/' : options.vocabUrl);
        return;
      }
      const term = await get(options.accept);
      for (const note of term.notes) ctx.log(`term: ${note}`);
      ctx.log(`term: ${term.url}: ${term.quads.length} triples (${formatInfo(term.format).label}${term.via === 'negotiation' || term.via === 'shipped' ? '' : `, via ${term.via}`})`);
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
      ctx.json.set({ name, url: term.url, mediaType: term.mediaType, format: term.format, via: term.via, triples: term.quads.length, notes: term.notes, output: output ?? null, outputFormat: format ?? term.format });
    });
}

/** The shipped copies of a term in `vocab/` (none for a name that is not one). */
function shippedFiles(name: string): string[] {
  try {
    return FORMATS.filter((f) => f.format !== 'nquads').map((f) => shippedTermPath(name, f.format));
  } catch {
    return []; // not a term name: said when the term is fetched
  }
}

/** Writes quads in a format with the serialisers (one group: a term is small). */
export function serialize(quads: readonly RDF.Quad[], format: FormatName): string {
  const writer = serializerFor(format).createWriter({ prefixes: TERM_PREFIXES });
  return writer.start() + writer.write(quads) + writer.end();
}

async function check(
  name: string,
  get: (accept: string) => Promise<FetchedTerm>,
  ctx: CliContext,
  where: string,
): Promise<void> {
  // Graph isomorphism (rdf-isomorphic) is loaded for the check only.
  const { compareGraphs } = await import('../../vocabulary/compareGraphs.js');
  // With --json, the report is the JSON object instead of these lines.
  const out = (line: string) => (ctx.json.enabled ? undefined : ctx.io.stdout.write(`${line}\n`));
  const results: { mediaType: string; term?: FetchedTerm; error?: Error }[] = [];
  for (const mediaType of TERM_MEDIA_TYPES) {
    try {
      results.push({ mediaType, term: await get(mediaType) });
    } catch (err) {
      if (err instanceof ToolkitError && err.code === 'aborted') throw err;
      results.push({ mediaType, error: err as Error });
    }
  }
  const ok = results.filter((r) => r.term);
  ctx.json.set({ name, where, formats: results.map(formatJson) });
  // Nothing came back at all (the service is down, the term unknown): that error, not a comparison of nothing.
  if (ok.length === 0 && results.some((r) => !(r.error instanceof ToolkitError && r.error.code === 'parse'))) throw results[0]!.error!;
  let differs = false;
  out(`term ${name} at ${where}`);
  for (const r of results) {
    if (r.term) {
      const t = r.term;
      const served = t.mediaType === r.mediaType ? '' : `, got ${formatInfo(t.format).label}`;
      const via = t.via === 'negotiation' || t.via === 'shipped' ? '' : ` via ${t.via}`;
      out(`  ${r.mediaType.padEnd(22)} ${String(t.quads.length).padStart(4)} triples  ${t.url}${served}${via}`);
    } else {
      differs = true;
      out(`  ${r.mediaType.padEnd(22)} error: ${r.error!.message}`);
    }
  }
  // A format the service did not serve as asked was not checked: the service does not negotiate it.
  const notServed = ok.filter((r) => r.term!.mediaType !== r.mediaType);
  if (notServed.length > 0) {
    differs = true;
    out(`content negotiation: ${notServed.length} of ${results.length} format(s) not served as asked (${notServed.map((r) => r.mediaType).join(', ')})`);
  }
  ctx.json.set({ servedAsAsked: notServed.length === 0 });
  if (ok.length === 0) {
    ctx.json.set({ agree: false, failed: results.length, sameAsShipped: null });
    out(`formats agree: no (${results.length} failed)`);
    ctx.setExitCode(1);
    return;
  }
  const reference = ok[0]!;
  let agree = true;
  for (const r of ok.slice(1)) {
    const cmp = compareGraphs(r.term!.quads, reference.term!.quads);
    if (cmp.same) continue;
    agree = false;
    out(`  ${r.mediaType} differs from ${reference.mediaType}:`);
    printDiff(out, cmp.onlyInFirst, cmp.onlyInSecond);
  }
  out(`formats agree: ${agree ? 'yes' : 'no'}${results.length > ok.length ? ` (${results.length - ok.length} failed)` : ''}`);
  ctx.json.set({ agree, failed: results.length - ok.length, sameAsShipped: null });
  if (!agree) differs = true;

  let shipped: FetchedTerm | undefined;
  try {
    shipped = await loadShippedTerm(name, 'ntriples');
  } catch (err) {
    out(`shipped copy: none (${(err as Error).message})`);
  }
  if (shipped) {
    // Every format that came back, not only the first: they may disagree among themselves.
    const unlike = ok.map((r) => ({ r, cmp: compareGraphs(r.term!.quads, shipped.quads) })).filter((c) => !c.cmp.same);
    out(`same as the shipped copy (vocab/${name}): ${unlike.length === 0 ? 'yes' : `no (${unlike.map((c) => c.r.mediaType).join(', ')})`}`);
    ctx.json.set({ sameAsShipped: unlike.length === 0 });
    for (const { r, cmp } of unlike) {
      differs = true;
      out(`  + only in ${r.mediaType} from ${where}, - only in the shipped copy:`);
      printDiff(out, cmp.onlyInFirst, cmp.onlyInSecond);
    }
  }
  if (differs) ctx.setExitCode(1);
}

/** One format of `term --check --json`: what came back, or the error. */
function formatJson(r: { mediaType: string; term?: FetchedTerm; error?: Error }): Record<string, unknown> {
  if (!r.term) return { asked: r.mediaType, error: r.error!.message };
  return { asked: r.mediaType, mediaType: r.term.mediaType, triples: r.term.quads.length, url: r.term.url, via: r.term.via };
}

function printDiff(out: (line: string) => void, added: readonly string[], removed: readonly string[]): void {
  for (const line of added) out(`    + ${line}`);
  for (const line of removed) out(`    - ${line}`);
}

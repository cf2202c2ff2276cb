// A consumer of the packed package (scripts/consumerCheck.sh): type-checked under `strict` with
// `skipLibCheck: false` against the published declarations, then run with node.
//   node consumer.js plain SAMPLE.jsonl   converts and validates without the SPARQL engine installed;
//                                         `sparql: 'engine'` must fail with a `usage` error naming it
//   node consumer.js engine               with the optional peers installed: the engine gives the
//                                         results the native constraints give
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  ApiClient,
  ERROR_CODES,
  FORMATS,
  QuadStreamSerializer,
  RecordSink,
  ToolkitError,
  convertFiles,
  createRecordValidation,
  exitCodeFor,
  exportDump,
  fetchTerm,
  harvest,
  loadDump,
  mapRecord,
  normalizeRecord,
  parseRdf,
  readRecords,
  serializerFor,
  startServer,
  validateDump,
} from 'scholarly-rdf';
import type {
  ConvertSummary,
  ExportDumpOptions,
  FetchTermOptions,
  LoadDumpOptions,
  RecordValidation,
  RunningServer,
  StartServerOptions,
  ValidateDumpSummary,
} from 'scholarly-rdf';

/** Every job of the library, typed as the declarations say. */
export const jobs = {
  exportDump,
  convertFiles,
  validateDump,
  loadDump,
  fetchTerm,
  startServer,
  mapRecord,
  normalizeRecord,
  readRecords,
  harvest,
  serializerFor,
  parseRdf,
  exitCodeFor,
};
export const classes = { ApiClient, RecordSink, QuadStreamSerializer, ToolkitError };
export type Options = [
  ExportDumpOptions,
  LoadDumpOptions,
  FetchTermOptions,
  StartServerOptions,
  RunningServer | undefined,
];
export const formats: readonly string[] = FORMATS.map((f) => f.format);
export const usageExit: number = ERROR_CODES.usage;

function check(ok: boolean, what: string, detail = ''): void {
  if (!ok) throw new Error(`consumer check failed: ${what}${detail}`);
  console.log(`ok: ${what}`);
}

/** A person whose ORCID iD has a wrong check character: one violation, from a SPARQL constraint. */
const BAD_ORCID =
  '<https://orcid.org/0000-0002-5308-6431> a <http://schema.org/Person> ; <http://schema.org/name> "Ann Example" .\n';

/** The violations of {@link BAD_ORCID}, as JSON; `withMessages: false` leaves the messages out. */
async function violationsOf(validation: RecordValidation, withMessages = true): Promise<string> {
  const quads = [];
  for await (const q of parseRdf(Readable.from([BAD_ORCID]), { format: 'turtle' })) quads.push(q);
  const [violations = []] = await validation.violations([quads]);
  return JSON.stringify(violations.map((v) => (withMessages ? v : { ...v, message: undefined })));
}

async function plain(sample: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'scholarly-consumer-'));
  try {
    const dump = join(dir, 'sample.nt');
    const converted: ConvertSummary = await convertFiles({ inputs: [sample], output: dump });
    check(
      converted.mapped > 0 && converted.rejected === 0,
      `convertFiles wrote ${converted.mapped} records, ${converted.statements} statements`,
    );
    for (const jobs of [1, 2]) {
      const validated: ValidateDumpSummary = await validateDump({
        files: [dump],
        jobs,
        reportPath: join(dir, `report-${jobs}.ttl`),
      });
      check(
        validated.conforms && validated.summary.records === converted.mapped,
        `validateDump (${validated.jobs} thread(s)): ${validated.summary.toLines()[0]}`,
      );
    }
    const native = await violationsOf(await createRecordValidation());
    check(native.includes('wrong check character'), 'the native SPARQL constraints run');
    const refused = await createRecordValidation({ sparql: 'engine' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    check(
      refused instanceof ToolkitError &&
        refused.code === 'usage' &&
        refused.message.includes('npm install @comunica/query-sparql-rdfjs-lite'),
      `\`sparql: 'engine'\` without Comunica: ${refused instanceof Error ? refused.message : String(refused)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function engine(): Promise<void> {
  // The same results; the messages differ (the engine fills in `{?expected}` as `"X"`, the native code as `X`).
  const engineValidation = await createRecordValidation({ sparql: 'engine' });
  check(
    (await violationsOf(engineValidation)).includes('wrong check character'),
    "`sparql: 'engine'` runs the SPARQL constraints with Comunica",
  );
  const native = await violationsOf(await createRecordValidation(), false);
  const viaEngine = await violationsOf(engineValidation, false);
  check(
    viaEngine === native,
    "`sparql: 'engine'` gives the native results",
    `\n  engine: ${viaEngine}\n  native: ${native}`,
  );
}

const [mode, sample] = process.argv.slice(2);
if (mode === 'plain' && sample) await plain(sample);
else if (mode === 'engine') await engine();
else throw new Error('usage: consumer.js plain SAMPLE.jsonl | engine');

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ENDPOINT_PATHS } from '../client/ApiClient.js';
import { ToolkitError } from '../errors.js';
import { ExportFiles } from '../export/ExportFiles.js';
import { exportRdf } from '../export/exportRdf.js';
import { type ExportOptions, type ExportPlan, type ExportSummary, planExport } from '../export/exportOptions.js';
import { usesRecordGraphs } from '../export/exportSince.js';
import type { ShardManifest } from '../output/ShardManifest.js';
import { directFetch } from '../http/proxyFetch.js';
import { createRecordValidation } from './createRecordValidation.js';
import { type LoadDumpOptions, type LoadDumpSummary, loadDump, loadLogPath } from './loadDump.js';
import { type NamedOutput, refuseOverwritingInputs, shapeFiles, shardOutputs } from './refuseOverwritingInputs.js';
import { refuseReplacingDevices } from './refuseReplacingDevices.js';

/** Options of {@link exportDump}: those of the harvest and the dump, and what to do with it. */
export interface ExportDumpOptions extends Omit<ExportOptions, 'validation'> {
  /**
   * Harvest the bundled sample catalogue through the local service, started
   * in-process on a free loopback port and stopped at the end: no key, no
   * network. Not with `baseUrl`, `apiKey` or `client`. Defaults to false.
   */
  sample?: boolean;
  /** Check every record against SHACL shapes; records that do not conform are rejected. Defaults to false. */
  validate?: boolean;
  /** With `validate`: a directory (or file) of shapes instead of the shipped ones. Defaults to the shipped shapes. */
  shapesDir?: string;
  /** Then load the finished dump into a triple store (see {@link loadDump}; needs `output`). Defaults to none. */
  load?: Omit<LoadDumpOptions, 'files'>;
}

/** What {@link exportDump} did. */
export interface ExportDumpSummary extends ExportSummary {
  /** The load of the dump, with `load`. */
  load?: LoadDumpSummary;
}

/**
 * Harvests every record of a query into one RDF dump, resumably (see
 * {@link exportRdf}), optionally validating each record and loading the
 * finished dump into a triple store.
 *
 * ```ts
 * const summary = await exportDump({ query: 'type:Journal', sample: true, output: 'sample.ttl' });
 * ```
 */
export async function exportDump(options: ExportDumpOptions): Promise<ExportDumpSummary> {
  const { sample, validate, shapesDir, load, ...rest } = options;
  if (load && !options.output)
    throw new ToolkitError('`load` needs the dump in a file (`output`): the load is resumable from it', 'usage');
  if (load && usesRecordGraphs(options)) {
    const name = options.graphPerRecord
      ? '`graphPerRecord`'
      : options.since !== undefined
        ? '`since` (a graph per record)'
        : '`changesSince` (a graph per record)';
    throw new ToolkitError(
      `${name} and \`load\` do not go together: load puts every quad into one graph, which would merge the record graphs; load the file with a tool that keeps named graphs`,
      'usage',
    );
  }
  if (shapesDir !== undefined && !validate) throw new ToolkitError('`shapesDir` goes with `validate`', 'usage');
  // Worked out once: the outputs refused here are those the export writes.
  const plan = planExport(options);
  const outputs = exportOutputs(options, plan);
  refuseOverwritingInputs(outputs, validate ? shapeFiles(shapesDir) : []);
  // The rejects are written in place when they go to a device (openOutput); the others are renamed into place.
  refuseReplacingDevices(outputs.filter((o) => o.path !== options.rejectsPath));
  const shards = options.output ? plan.shards : undefined;
  const validation = validate
    ? await createRecordValidation({ ...(shapesDir !== undefined ? { shapesDir } : {}) })
    : undefined;
  const service = sample ? await startSample(options) : undefined;
  let summary: ExportSummary;
  try {
    summary = await exportRdf(
      { ...rest, ...(service ? service.client : {}), ...(validation ? { validation } : {}) },
      { plan, ...(service ? { endpointName: service.name } : {}) },
    );
  } finally {
    await service?.close();
  }
  if (!load) return summary;
  const files = shards
    ? (await readManifest(shards.naming.manifestPath)).shards.map((s) => join(shards.naming.folder, s.file))
    : [options.output!];
  return { ...summary, load: await loadDump({ ...load, files }) };
}

/** The files an export writes (the dump, its state and DOI side file, the description, the rejects, the load log), named as options. */
function exportOutputs(options: ExportDumpOptions, exportPlan: ExportPlan): NamedOutput[] {
  // A state only with an output file (a dump to stdout is not resumable).
  const plan = options.output ? exportPlan : undefined;
  const statePath = plan?.statePath;
  const named: [string | undefined, string][] = [
    [plan?.shards ? undefined : options.output, '`output`'],
    [statePath, '`statePath`'],
    [ExportFiles.seenPathOf(statePath), 'the DOI side file of `statePath`'],
    [statePath && `${statePath}.tmp`, 'the temporary file of `statePath`'],
    [options.metaPath, '`metaPath`'],
    [options.metaPath && `${options.metaPath}.tmp`, 'the temporary file of `metaPath`'],
    [options.rejectsPath, '`rejectsPath`'],
    // The load log of shards is named after the first (a `load` of those files names it so).
    [
      options.load &&
        options.output &&
        loadLogPath(
          [plan?.shards ? plan.shards.naming.path(1) : options.output],
          options.load.statePath,
          options.load.cwd,
        ),
      'the load log of `load`',
    ],
  ];
  const files = named.filter((n): n is [string, string] => n[0] !== undefined).map(([path, what]) => ({ path, what }));
  return plan?.shards ? [...shardOutputs(plan.shards.naming, '`output`'), ...files] : files;
}

/** The local service over the bundled sample, started for one export. */
async function startSample(options: ExportDumpOptions): Promise<{
  client: Pick<ExportOptions, 'baseUrl' | 'apiKey' | 'keyIsPublic' | 'fetch'>;
  name: string;
  close: () => Promise<void>;
}> {
  if (options.baseUrl !== undefined) throw new ToolkitError('`sample` and `baseUrl` do not go together', 'usage');
  if (options.apiKey !== undefined)
    throw new ToolkitError("`sample` uses the sample service's own key: drop `apiKey`", 'usage');
  if (options.client !== undefined)
    throw new ToolkitError('`sample` and a `client` of your own do not go together', 'usage');
  const server = await import('../server/index.js');
  const running = await server.startServer({ ...server.sampleCatalogueOptions(), host: '127.0.0.1', port: 0 });
  return {
    // The sample key is public: nothing to hide (hiding it would garble texts that contain "sample").
    // The service is ours, on this machine: never through a proxy of the environment.
    client: {
      baseUrl: running.url,
      apiKey: server.SAMPLE_API_KEY,
      keyIsPublic: true,
      ...(options.fetch ? {} : { fetch: directFetch }),
    },
    // Named without its port, which changes from run to run: the state of an interrupted export stays resumable.
    name: `sample:${ENDPOINT_PATHS[options.endpoint ?? 'meta-v2']}`,
    close: () => running.close(100),
  };
}

/** Reads a manifest of shards. */
async function readManifest(path: string): Promise<ShardManifest> {
  return JSON.parse(await readFile(path, 'utf8')) as ShardManifest;
}

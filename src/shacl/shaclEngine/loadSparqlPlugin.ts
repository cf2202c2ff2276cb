import { ToolkitError } from '../../errors.js';
import { importSparqlPlugin, type SparqlPlugin } from './shaclEngine.js';

/**
 * The packages shacl-engine's SPARQL plugin imports: optional peer dependencies
 * of scholarly-rdf (about 240 packages), so not installed by default.
 */
export const SPARQL_ENGINE_PACKAGES = [
  '@comunica/query-sparql-rdfjs-lite@^5.2.3',
  '@comunica/utils-bindings-factory@^5.2.3',
] as const;

/**
 * shacl-engine's SPARQL plugin (Comunica: the `sh:sparql` validation and SPARQL targets), loaded
 * now. `why` says what needs it (it starts the message when the plugin is not
 * installed: a `usage` error naming what to install). `load` imports the
 * plugin (tests give another).
 */
export async function loadSparqlPlugin(
  why: string,
  load: () => Promise<SparqlPlugin> = importSparqlPlugin,
): Promise<SparqlPlugin> {
  let plugin: SparqlPlugin;
  try {
    plugin = await load();
  } catch (err) {
    if (!isMissingSparqlEngine(err)) throw err;
    throw new ToolkitError(
      `${why}: that engine (shacl-engine's SPARQL plugin) needs Comunica, an optional peer dependency that is not installed; install it next to scholarly-rdf: npm install ${SPARQL_ENGINE_PACKAGES.join(' ')}`,
      'usage',
      { cause: err, details: { install: [...SPARQL_ENGINE_PACKAGES] } },
    );
  }
  return plugin;
}

/** Whether `err` says that a package of the SPARQL engine (Comunica) cannot be found. */
function isMissingSparqlEngine(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    /@comunica\/|'shacl-engine/.test(message)
  );
}

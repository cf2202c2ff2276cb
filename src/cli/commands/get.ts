import type { Command } from 'commander';
import { parseFormatName } from '../../formats.js';
import type { CliContext } from '../CliContext.js';
import { type ConnectionOptions, connect, envApiKeys, keySafe } from '../connection.js';
import { addCommandOptions } from '../options/optionTable.js';

/** Registers `get`: one record's RDF, looked up by DOI. */
export function registerGet(program: Command, ctx: CliContext): void {
  const getCmd = program
    .command('get')
    .description("print one record's RDF, looked up by DOI")
    .argument('<doi>', 'the DOI, e.g. 10.1007/s11306-017-1242-7');
  addCommandOptions(getCmd, 'get', (line) => ctx.log(line)).action(
    async (doi: string, opts: ConnectionOptions & { format: string; base?: string; json?: boolean }) => {
      if (opts.json) ctx.json.enable('get', 'stderr');
      let key: string | undefined;
      await keySafe(
        () => [key, opts.apiKey, ...envApiKeys(ctx)],
        async () => {
          const format = parseFormatName(opts.format);
          const connection = await connect(opts, ctx);
          key = connection.key;
          try {
            const { recordRdf } = await import('../../tasks/recordRdf.js');
            const got = await recordRdf(doi, {
              client: connection.client,
              format,
              ...(opts.base ? { base: opts.base } : {}),
              signal: ctx.signal,
            });
            ctx.io.stdout.write(got.text);
            ctx.json.set({ doi: got.doi, format, statements: got.statements, bytes: Buffer.byteLength(got.text) });
          } finally {
            await connection.close();
          }
        },
      );
    },
  );
}

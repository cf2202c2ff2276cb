import type { Command } from 'commander';
import { ToolkitError } from '../../errors.js';
import { parseFormatName } from '../../formats.js';
import { RecordSink } from '../../pipeline/RecordSink.js';
import { describeRejection } from '../../pipeline/Rejection.js';
import { bareDoi } from '../../record/recordDoi.js';
import { serializerFor } from '../../serialize/serializers.js';
import type { CliContext } from '../CliContext.js';
import { type ConnectionOptions, connect, envApiKeys, keySafe } from '../connection.js';
import { OPTION_TABLE, addCommandOptions } from '../options/optionTable.js';

/** Registers `get`: one record's RDF, looked up by DOI. */
export function registerGet(program: Command, ctx: CliContext): void {
  const getCmd = program.command('get').description("print one record's RDF, looked up by DOI").argument('<doi>', 'the DOI, e.g. 10.1007/s11306-017-1242-7');
  addCommandOptions(getCmd, 'get', (line) => ctx.log(line)).action(async (doi: string, opts: ConnectionOptions & { format: string; base?: string; json?: boolean }) => {
    if (opts.json) ctx.json.enable('get', 'stderr');
    let key: string | undefined;
    await keySafe(() => [key, opts.apiKey, ...envApiKeys(ctx)], async () => {
      const format = parseFormatName(opts.format);
      const connection = await connect(opts, ctx);
      key = connection.key;
      try {
        const bare = bareDoi(doi);
        const { record } = await connection.client.getRecord(bare, ctx.signal);
        if (!record) throw new ToolkitError(`the service has no record with DOI ${bare}`, 'not-found');
        let rejected: string | undefined;
        let statements = 0;
        const sink = new RecordSink(serializerFor(format).createWriter(), {
          ...(opts.base ? { base: opts.base } : {}),
          format,
          onRejected: (r) => {
            rejected = describeRejection(r);
          },
          onWritten: (w) => {
            statements = w.mapped.quads.length;
          },
        });
        const text = sink.start() + (await sink.take([{ kind: 'record', raw: record, source: connection.client.endpointUrl, index: 1 }])) + sink.end();
        if (rejected !== undefined) throw new ToolkitError(`the record cannot be written: ${rejected}`, 'record-invalid');
        ctx.io.stdout.write(text);
        ctx.json.set({ doi: bare, format, statements, bytes: Buffer.byteLength(text) });
      } finally {
        await connection.close();
      }
    });
  });
}

import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';

/** Placeholder until the `export` command lands. */
export function registerExport(program: Command, _ctx: CliContext): void {
  program
    .command('export')
    .description('(not available yet)')
    .action(() => {
      throw new ToolkitError('the export command is not available yet', 'usage');
    });
}

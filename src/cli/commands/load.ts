import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';

/** Placeholder until the `load` command lands. */
export function registerLoad(program: Command, _ctx: CliContext): void {
  program
    .command('load')
    .description('(not available yet)')
    .action(() => {
      throw new ToolkitError('the load command is not available yet', 'usage');
    });
}

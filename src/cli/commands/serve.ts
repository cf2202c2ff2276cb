import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';

/** Placeholder until the `serve` command lands. */
export function registerServe(program: Command, _ctx: CliContext): void {
  program
    .command('serve')
    .description('(not available yet)')
    .action(() => {
      throw new ToolkitError('the serve command is not available yet', 'usage');
    });
}

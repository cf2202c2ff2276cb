import type { Command } from 'commander';
import type { CliContext } from '../CliContext.js';
import { ToolkitError } from '../../errors.js';

/** Placeholder until the `convert` command lands. */
export function registerConvert(program: Command, _ctx: CliContext): void {
  program
    .command('convert')
    .description('(not available yet)')
    .action(() => {
      throw new ToolkitError('the convert command is not available yet', 'usage');
    });
}

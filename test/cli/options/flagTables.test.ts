import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagReference, shortFlagTable } from '../../../src/cli/options/flagTables.js';
import { OPTION_TABLE } from '../../../src/cli/options/optionTable.js';
import { runCli } from '../../helpers/cli.js';

const ROOT = join(import.meta.dirname, '../../..');

/** The text between a generated block's markers. */
function block(file: string, name: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const start = `<!-- ${name}: generated from src/cli/options/ by scripts/writeCliReference.mjs -->\n`;
  const i = text.indexOf(start);
  const j = text.indexOf(`\n<!-- end of ${name} -->`);
  expect(i, `${file} has no ${name}`).toBeGreaterThanOrEqual(0);
  return text.slice(i + start.length, j);
}

describe('the flag tables of the docs', () => {
  it('are the option table (rewrite them with scripts/writeCliReference.mjs)', () => {
    expect(block('docs/cli.md', 'flag tables')).toBe(flagReference());
    expect(block('README.md', 'short flags')).toBe(shortFlagTable());
  });

  it('list what --help lists', async () => {
    const reference = flagReference();
    for (const command of Object.keys(OPTION_TABLE)) {
      const help = (await runCli([command, '--help'])).stdout;
      const section = reference.slice(reference.indexOf(`## \`${command}\``)).split('\n## ')[0]!;
      const inHelp = [...help.matchAll(/^ {2}(-[^\s,]+(?:, --[^\s]+)?)/gm)]
        .map((m) => m[1]!)
        .filter((f) => f !== '-h, --help');
      const inDocs = [...section.matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1]!);
      expect(inDocs, command).toEqual(inHelp);
    }
  });
});

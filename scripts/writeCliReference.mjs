// Writes the flag tables of docs/cli.md and the README's short-flag table from the option table
// (src/cli/options/): `npm run build && node scripts/writeCliReference.mjs`. test/cli/options/flagTables.test.ts
// fails when they differ from it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { flagReference, shortFlagTable } from '../dist/cli/options/flagTables.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const between = (text, name, body) => {
  const start = `<!-- ${name}: generated from src/cli/options/ by scripts/writeCliReference.mjs -->`;
  const end = `<!-- end of ${name} -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < 0) throw new Error(`markers of ${name} not found`);
  return `${text.slice(0, i + start.length)}\n${body}\n${text.slice(j)}`;
};
for (const [file, name, body] of [
  ['docs/cli.md', 'flag tables', flagReference()],
  ['README.md', 'short flags', shortFlagTable()],
]) {
  writeFileSync(root + file, between(readFileSync(root + file, 'utf8'), name, body));
}

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A code block of the docs that imports the library. */
export interface DocSnippet {
  /** `README.md:79`: the file and the line of the opening fence. */
  where: string;
  code: string;
  /** What running it needs that a test on its own does not have (`needs-store`, `needs-key`), from the fence's info string. */
  needs: string[];
}

const ROOT = join(import.meta.dirname, '../..');

/** The Markdown files whose code the docs test reads: README.md and docs/*.md. */
export function docFiles(): string[] {
  return ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/** Every fenced block of a Markdown text, with its info string and the line of its fence. */
export function fencedBlocks(text: string): { info: string; code: string; line: number }[] {
  const blocks: { info: string; code: string; line: number }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) body.push(lines[i]!);
    blocks.push({ info: open[1]!.trim(), code: `${body.join('\n')}\n`, line: start + 1 });
  }
  return blocks;
}

/** The library snippets of the docs: TypeScript or JavaScript blocks that import `scholarly-rdf`. */
export function librarySnippets(): DocSnippet[] {
  return docFiles().flatMap((file) =>
    fencedBlocks(readFileSync(join(ROOT, file), 'utf8'))
      .filter((b) => /^(ts|typescript|js|javascript)\b/.test(b.info) && /from 'scholarly-rdf'/.test(b.code))
      .map((b) => ({ where: `${file}:${b.line}`, code: b.code, needs: b.info.split(/\s+/).slice(1).filter((w) => w.startsWith('needs-')) })),
  );
}

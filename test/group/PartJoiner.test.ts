import { describe, expect, it } from 'vitest';
import { groupNTriplesRecords, lineRecordKey, NTriplesLineGrouper } from '../../src/group/groupNTriplesRecords.js';
import { PartJoiner, type GroupedPart } from '../../src/group/PartJoiner.js';

/** A pseudo-random generator (deterministic: the same cases each run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

/** Lines of records mostly together, some lines late (within and beyond the window), shared nodes and blank nodes. */
function dumpLines(rnd: () => number, records: number, lateness: number): string[] {
  const lines: string[] = [];
  const late: [number, string][] = [];
  for (let r = 0; r < records; r++) {
    const work = `<https://doi.org/10.1/r${r}>`;
    const n = 1 + Math.floor(rnd() * 4);
    for (let i = 0; i < n; i++) {
      const line = `${work} <http://schema.org/name> "n${i}" .`;
      if (rnd() < lateness) late.push([lines.length + 1 + Math.floor(rnd() * 40), line]);
      else lines.push(line);
      if (rnd() < 0.2) lines.push(`<https://w3id.org/scholarly-rdf/journal/${r % 3}> <http://schema.org/name> "J" .`);
      if (rnd() < 0.1) {
        lines.push(`${work} <http://schema.org/about> _:b${r} .`);
        const blank = `_:b${r} <http://schema.org/name> "b" .`;
        if (rnd() < 0.5) lines.push(blank);
        else late.push([lines.length + 1 + Math.floor(rnd() * 10), blank]);
      }
    }
    for (let k = late.length - 1; k >= 0; k--) if (late[k]![0] <= lines.length) lines.push(late.splice(k, 1)[0]![1]);
  }
  for (const [, line] of late) lines.push(line);
  return lines;
}

async function wholeGrouping(text: string) {
  let splits = 0;
  const keys: (string | undefined)[] = [];
  const texts: string[] = [];
  for await (const g of groupNTriplesRecords([text], { onSplitRecord: () => splits++ })) {
    keys.push(g.key);
    texts.push(g.text);
  }
  return { keys, texts, splits };
}

describe('PartJoiner', () => {
  it('takes only parts grouped as the whole input is, and counts split records as its grouping does', async () => {
    let taken = 0;
    let refused = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const rnd = random(seed);
      const lines = dumpLines(rnd, 40, seed % 4 < 2 ? 0.005 : 0.08);
      const whole = await wholeGrouping(`${lines.join('\n')}\n`);
      // Cuts where a record starts (as nextRecordStart cuts) for odd seeds, at any line for even ones.
      const cuts = [0];
      let current: string | undefined;
      for (let i = 1; i < lines.length; i++) {
        const key = lineRecordKey(lines[i]!, 'ntriples');
        const starts = key !== undefined && current !== undefined && key !== current;
        if (key !== undefined) current = key;
        if ((seed % 2 === 0 || starts) && rnd() < 0.15) cuts.push(i);
      }
      cuts.push(lines.length);
      const joiner = new PartJoiner<GroupedPart & { texts: string[] }>(4);
      const keys: (string | undefined)[] = [];
      const texts: string[] = [];
      let restart: number | undefined;
      for (let c = 0; c + 1 < cuts.length; c++) {
        const grouper = new NTriplesLineGrouper({ watch: true });
        const groups = grouper.addText(`${lines.slice(cuts[c], cuts[c + 1]).join('\n')}\n`);
        const boundary = {
          startsWithRecord: grouper.watch!.startsWithRecord ?? false,
          waiting: grouper.waiting,
          earlyBlanks: [...grouper.watch!.earlyBlanks],
          otherEarly: grouper.watch!.otherEarly,
          openBlanks: grouper.openBlankLabels(),
        };
        groups.push(...grouper.end());
        const part = { start: cuts[c]!, keys: groups.map((g) => g.key), texts: groups.map((g) => g.text), boundary };
        if (!joiner.offer(part, c + 2 === cuts.length)) {
          restart = joiner.restartAt(part.start);
          break;
        }
        for (const p of joiner.sealed()) {
          keys.push(...p.keys);
          texts.push(...p.texts);
        }
      }
      if (restart === undefined) {
        for (const p of joiner.flush()) {
          keys.push(...p.keys);
          texts.push(...p.texts);
        }
        taken++;
        expect({ seed, keys, texts, splits: joiner.splits }).toEqual({ seed, ...whole });
      } else {
        refused++;
        // The parts passed on are the whole grouping's first groups; the rest, grouped in order from the restart,
        // gives the others, and the split records counted add up.
        const rest = new NTriplesLineGrouper({ firstLine: restart + 1 });
        const groups = [...rest.addText(`${lines.slice(restart).join('\n')}\n`), ...rest.end()];
        for (const g of groups) joiner.observe(g.key);
        expect({
          seed,
          keys: [...keys, ...groups.map((g) => g.key)],
          texts: [...texts, ...groups.map((g) => g.text)],
          splits: joiner.splits,
        }).toEqual({ seed, ...whole });
      }
    }
    // Both ways were taken.
    expect(taken).toBeGreaterThan(3);
    expect(refused).toBeGreaterThan(3);
  });
});

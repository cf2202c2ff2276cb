import { FACET_NAMES, FacetIndex, type FacetName } from './FacetIndex.js';
import type { IndexedRecord, SharedText } from './IndexedRecord.js';
import { IntList, concatInt32 } from './IntList.js';

/** The facets of a part of a catalogue as plain data (what a loading worker sends back). */
export interface RawFacets {
  /** Per facet: its values by value id. */
  labels: string[][];
  /** Per record: where its codes start (one more entry than records). */
  offsets: Int32Array;
  /** Value id × 8 + facet index, record after record. */
  codes: Int32Array;
}

/** The index of each facet in {@link FACET_NAMES}. */
const FACET: Readonly<Record<FacetName, number>> = Object.fromEntries(
  FACET_NAMES.map((name, k) => [name, k]),
) as Record<FacetName, number>;

/** Builds a {@link FacetIndex} record by record. */
export class FacetsBuilder {
  private readonly dicts = FACET_NAMES.map(() => new Map<string, number>());
  private readonly labels: string[][] = FACET_NAMES.map(() => []);
  private readonly offsets = new IntList();
  private readonly codes = new IntList();
  /** The code of the `country` value of records with no country (''). */
  private readonly noCountry: number;

  constructor() {
    this.offsets.push(0);
    this.noCountry = this.code(FACET.country, '');
  }

  /** Adds the facet values of the next record, facet after facet in {@link FACET_NAMES} order. */
  add(r: IndexedRecord): void {
    this.addAllShared(FACET.subject, r.subjects);
    this.addAllShared(FACET.keyword, r.keywords);
    this.addShared(FACET.pub, r.publicationName);
    this.addShared(FACET.year, r.year);
    if (r.countries.length > 0) this.addAllShared(FACET.country, r.countries);
    else this.codes.push(this.noCountry);
    this.addShared(FACET.type, r.publicationType);
    this.offsets.push(this.codes.length);
  }

  /** The facets as built. */
  build(): FacetIndex {
    return new FacetIndex(this.labels, this.offsets.freeze(), this.codes.freeze());
  }

  /** The facets as plain data (see {@link mergeFacets}). */
  raw(): RawFacets {
    return { labels: this.labels, offsets: this.offsets.freeze(), codes: this.codes.freeze() };
  }

  private addShared(k: number, text: SharedText | undefined): void {
    if (text !== undefined) this.codes.push((text.facet ??= this.code(k, text.text)));
  }

  private addAllShared(k: number, texts: readonly SharedText[]): void {
    for (let i = 0; i < texts.length; i++) this.addShared(k, texts[i]!);
  }

  /** The code (value id × 8 + k) of a value of facet `k`. */
  private code(k: number, value: string): number {
    const dict = this.dicts[k]!;
    let id = dict.get(value);
    if (id === undefined) {
      id = dict.size;
      dict.set(value, id);
      this.labels[k]!.push(value);
    }
    return id * 8 + k;
  }
}

/** Joins the facets of consecutive parts of a catalogue (in file order) into one index: one dictionary per facet, values re-coded. */
export function mergeFacets(parts: readonly RawFacets[]): FacetIndex {
  const labels: string[][] = FACET_NAMES.map(() => []);
  const dicts = FACET_NAMES.map(() => new Map<string, number>());
  const codes = concatInt32(
    parts.map((p) => {
      const remaps = p.labels.map((facet, k) =>
        facet.map((label) => {
          let id = dicts[k]!.get(label);
          if (id === undefined) {
            id = dicts[k]!.size;
            dicts[k]!.set(label, id);
            labels[k]!.push(label);
          }
          return id;
        }),
      );
      const out = new Int32Array(p.codes.length);
      for (let i = 0; i < out.length; i++) {
        const code = p.codes[i]!;
        out[i] = remaps[code & 7]![code >>> 3]! * 8 + (code & 7);
      }
      return out;
    }),
  );
  let codeOffset = 0;
  const offsets = concatInt32(
    parts.map((p, k) => (k === 0 ? p.offsets : p.offsets.subarray(1))),
    (k) => {
      const d = codeOffset;
      codeOffset += parts[k]!.codes.length;
      return d;
    },
  );
  return new FacetIndex(labels, offsets, codes);
}

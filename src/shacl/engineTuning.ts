/**
 * Two getters of grapoi's `PathList` (the pointer class shacl-engine walks
 * every graph with) answered without building a set.
 *
 * `PathList.term` builds a `TermSet` of all its pointers' terms (an N-Triples
 * string for each) to see whether they are one term, and `PathList.dataset`
 * a `Set` of their datasets; shacl-engine reads both several times for every
 * value of every shape, nearly always on a list of a single pointer. The
 * versions installed here return the very same values (for one pointer its
 * term or dataset; for several, the original `term`, and for `dataset` the
 * common dataset by identity, as the `Set` compares them) and cost a property
 * read: validation is about an eighth faster (bench/validate.bench.mjs).
 *
 * They are installed on the prototype shacl-engine itself uses (reached
 * through a validator's own pointer, not through an import of grapoi that
 * could resolve to another copy), once, and only when the getters have the
 * shape this code was written against; otherwise nothing changes.
 */

interface PointerLike {
  readonly term: unknown;
  readonly dataset: unknown;
}

interface PathListLike {
  readonly ptrs: readonly PointerLike[];
}

const TUNED = Symbol.for('scholarly-rdf.engineTuning');

/** The original getters, by prototype, so that {@link untuneEngine} can put them back. */
const originals = new WeakMap<object, { term: PropertyDescriptor; dataset: PropertyDescriptor }>();

/**
 * Installs the faster getters on the prototype of `pathList` (a grapoi
 * `PathList`, e.g. a shacl-engine `Validator`'s `shapesPtr`). Returns whether
 * they are installed (now or before).
 */
export function tuneEngine(pathList: unknown): boolean {
  if (!isPathList(pathList)) return false;
  const proto = Object.getPrototypeOf(pathList) as Record<PropertyKey, unknown>;
  if (proto[TUNED]) return true;
  const term = Object.getOwnPropertyDescriptor(proto, 'term');
  const dataset = Object.getOwnPropertyDescriptor(proto, 'dataset');
  if (!term?.get || !dataset?.get || !term.configurable || !dataset.configurable) return false;
  const termOfMany = term.get;
  originals.set(proto, { term, dataset });
  Object.defineProperty(proto, 'term', {
    configurable: true,
    enumerable: term.enumerable ?? false,
    get(this: PathListLike) {
      const ptrs = this.ptrs;
      return ptrs.length === 1 ? ptrs[0]!.term : termOfMany.call(this);
    },
  });
  Object.defineProperty(proto, 'dataset', {
    configurable: true,
    enumerable: dataset.enumerable ?? false,
    get(this: PathListLike) {
      const ptrs = this.ptrs;
      if (ptrs.length === 0) return null;
      const first = ptrs[0]!.dataset;
      for (let i = 1; i < ptrs.length; i++) if (ptrs[i]!.dataset !== first) return null;
      return first;
    },
  });
  Object.defineProperty(proto, TUNED, { value: true, configurable: true });
  return true;
}

/** Puts the original getters back (for tests that compare both). */
export function untuneEngine(pathList: unknown): void {
  if (!isPathList(pathList)) return;
  const proto = Object.getPrototypeOf(pathList) as Record<PropertyKey, unknown>;
  const saved = originals.get(proto);
  if (!saved) return;
  Object.defineProperty(proto, 'term', saved.term);
  Object.defineProperty(proto, 'dataset', saved.dataset);
  delete proto[TUNED];
  originals.delete(proto);
}

function isPathList(value: unknown): value is PathListLike {
  return typeof value === 'object' && value !== null && Array.isArray((value as { ptrs?: unknown }).ptrs);
}

/**
 * `String.prototype.charCodeAt`, called on the text rather than read from it (as in `rdf/flat.ts`): a read from
 * strings of many kinds goes megamorphic (65 k instructions a record in `recordDigest`). Kept in this module: imported
 * from another, the call is not inlined (94 k against 36 k a record; callgrind).
 */
const charCodeAt = String.prototype.charCodeAt;

/** The lanes' multipliers (odd: a multiplication is then a bijection of 32-bit numbers). */
const MUL_A = 0x9e3779b1;
const MUL_B = 0x85ebca77;

/**
 * A 64-bit hash of a sequence of texts and numbers, taken in JavaScript as they are given: no text is joined,
 * encoded or copied, and nothing is called natively. Two 32-bit lanes with their own multipliers and rotations
 * take two UTF-16 code units a step (read with `charCodeAt` below) (rotate, exclusive-or the units, multiply); each text comes with its length
 * first, so that a sequence of texts is told apart from any other cut of the same characters without an end mark.
 * A change of one step's units always changes both lanes (each step is a bijection of the lane and of the units);
 * two sequences that differ otherwise share a hash with a chance of about 2⁻⁶⁴ for inputs that are not made to
 * collide (it is no cryptographic hash). The same in every process and thread of one version (not kept across
 * versions). A record's digest takes 0.35× the instructions and 0.48× the CPU of SHA-1 through `node:crypto`
 * over one string gathered for it (2,000 generated records, in one process).
 */
export class TextHash64 {
  private a = 0x243f6a88 | 0;
  private b = 0x13198a2e | 0;

  /** Adds a number: its low 32 bits. */
  number(n: number): void {
    this.a = Math.imul(((this.a << 5) | (this.a >>> 27)) ^ n, MUL_A);
    this.b = Math.imul(((this.b << 11) | (this.b >>> 21)) ^ n, MUL_B);
  }

  /** Adds a text: its length, then its UTF-16 code units. */
  text(value: string): void {
    const length = value.length;
    let a = Math.imul(((this.a << 5) | (this.a >>> 27)) ^ length, MUL_A);
    let b = Math.imul(((this.b << 11) | (this.b >>> 21)) ^ length, MUL_B);
    let i = 0;
    for (; i + 1 < length; i += 2) {
      const units = charCodeAt.call(value, i) | (charCodeAt.call(value, i + 1) << 16);
      a = Math.imul(((a << 5) | (a >>> 27)) ^ units, MUL_A);
      b = Math.imul(((b << 11) | (b >>> 21)) ^ units, MUL_B);
    }
    if (i < length) {
      const unit = charCodeAt.call(value, i);
      a = Math.imul(((a << 5) | (a >>> 27)) ^ unit, MUL_A);
      b = Math.imul(((b << 11) | (b >>> 21)) ^ unit, MUL_B);
    }
    this.a = a;
    this.b = b;
  }

  /** The hash of what was added: two unsigned 32-bit numbers. */
  digest(): [number, number] {
    return [this.a >>> 0, this.b >>> 0];
  }
}

/** The offsets of {@link hashText}'s two lanes (32-bit FNV-1a each): where a text's hash starts. */
export const TEXT_HASH_A = 0x811c9dc5;
export const TEXT_HASH_B = 0x2b7e1516;

/**
 * Two 32-bit FNV-1a hashes of a text's UTF-16 units, with different offsets ({@link TEXT_HASH_A},
 * {@link TEXT_HASH_B}), or continued from the lanes `a` and `b` of a text before it: the lanes of `x + y` are
 * those of `y` from the lanes of `x`. Written into `out[at]` and `out[at + 1]` (unsigned).
 */
export function hashText(text: string, out: Uint32Array, at: number, a = TEXT_HASH_A, b = TEXT_HASH_B): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  out[at] = a;
  out[at + 1] = b;
}

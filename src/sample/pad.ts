/** `n` in decimal, zero-padded to `width` digits. */
export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

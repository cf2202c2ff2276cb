/** Text without the byte order marks a reader of the input drops at its start: two at most (the decoder's and the record reader's). */
export function withoutBoms(text: string): string {
  let from = 0;
  while (from < 2 && text.charCodeAt(from) === 0xfeff) from++;
  return from > 0 ? text.slice(from) : text;
}

/**
 * `String.prototype.charCodeAt`, called on the text rather than read from it: a property read from strings of
 * many kinds (flat or concatenated, one or two bytes a character, ...) sees many V8 maps and goes megamorphic,
 * about 10,000 more instructions a record when every written text passes here (callgrind).
 */
const charCodeAt = String.prototype.charCodeAt;

/**
 * The string, flattened: V8 keeps a concatenation as a tree of its pieces until it is read, and reading one
 * character makes it one flat string in place. Two uses: a text cached and put into many lines is then one piece
 * in each; and a regular expression tested on a concatenation not yet flat goes through V8's runtime, which costs
 * more than the flattening (an IRI of 70 characters: about 1,900 instructions tested as a concatenation, 1,450
 * flattened and tested; callgrind). The text is the same.
 */
export function flat(text: string): string {
  charCodeAt.call(text, 0);
  return text;
}

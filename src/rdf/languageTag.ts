/**
 * A well-formed BCP 47 language tag (RFC 5646 §2.1, case-insensitive): a
 * `langtag` (language, extlangs, script, region, variants, extensions, private
 * use), a private-use tag (`x-...`), or one of the irregular grandfathered tags
 * (`i-klingon`, `en-GB-oed`, ...; the regular ones are langtags already).
 * The same expression is in shapes/work.ttl (srsh:LanguageTagConstraint), so
 * that the mapper tags only what the shapes accept.
 */
export const LANGUAGE_TAG =
  /^(([a-z]{2,3}(-[a-z]{3}){0,3}|[a-z]{4,8})(-[a-z]{4})?(-([a-z]{2}|[0-9]{3}))?(-([a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(-[0-9a-wyz](-[a-z0-9]{2,8})+)*(-x(-[a-z0-9]{1,8})+)?|x(-[a-z0-9]{1,8})+|en-gb-oed|i-(ami|bnn|default|enochian|hak|klingon|lux|mingo|navajo|pwn|tao|tay|tsu)|sgn-(be-fr|be-nl|ch-de))$/i;

/** Whether a string is a well-formed BCP 47 language tag (the syntax RDF requires). */
export function isLanguageTag(tag: string): boolean {
  // Records name few languages, again and again: the expression is long, the answers are kept (a few hundred).
  let known = checked.get(tag);
  if (known === undefined) {
    known = LANGUAGE_TAG.test(tag);
    if (checked.size >= CHECKED_LIMIT) checked.clear();
    checked.set(tag, known);
  }
  return known;
}

const CHECKED_LIMIT = 256;
const checked = new Map<string, boolean>();

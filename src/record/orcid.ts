/** ISO 7064 MOD 11-2 check character of the first 15 digits of an ORCID iD (hyphens ignored). */
export function orcidCheckCharacter(id: string): string {
  let total = 0;
  // the first 15 digits, the hyphens between them passed over (no string made without them)
  for (let i = 0, digits = 0; digits < 15 && i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c === HYPHEN) continue;
    total = (total + (c - ZERO)) * 2;
    digits++;
  }
  const result = (12 - (total % 11)) % 11;
  return result === 10 ? 'X' : String(result);
}

/** Whether an ORCID iD (`0000-0002-1825-0097`) has the right check character. */
export function isValidOrcid(id: string): boolean {
  return /^[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{3}[0-9X]$/.test(id) && orcidCheckCharacter(id) === id[id.length - 1];
}

const HYPHEN = 0x2d;
const ZERO = 0x30;

/**
 * A count with thousands separators: `12,345` (as `toLocaleString('en-US')`,
 * which an integer does not need: its first call loads ICU's number
 * formatting: 117 M instructions, 8% of `convert --jobs 2`'s main thread in a
 * run of 3,000 records).
 */
export function formatCount(x: number): string {
  if (!Number.isSafeInteger(x)) return x.toLocaleString('en-US');
  const digits = String(Math.abs(x));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return x < 0 ? `-${out}` : out;
}

/** `h:mm:ss` or `m:ss`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

const BYTE_UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

/** A size in binary units, three figures: `512 B`, `12.3 KiB`, `45.6 MiB`, `1.23 GiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit = 'B';
  for (const next of BYTE_UNITS) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} ${unit}`;
}

/** The time of a plain progress line: ISO 8601 in UTC, to the second (`2025-11-25T12:03:05Z`). */
export function timestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** Where JSON text that could not be read went wrong, in words: the line and column, and whether it looks truncated. */

/** Whether JSON text ends inside a string (an odd quote open): a raw line break inside a string follows. */
export function endsInsideString(text: string): boolean {
  return stringStateAfter(text, false);
}

/** Whether JSON text that starts inside a string (or not, `inString`) ends inside one. */
export function stringStateAfter(text: string, inString: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
  }
  return inString;
}

/** A JSON.parse message with the line and column, and a word on truncation when the error is at the very end. */
export function describeJsonError(reason: string, text: string, firstLine: number, atEnd = true): string {
  const trimmed = text.trimEnd();
  const m = /at position (\d+)/.exec(reason);
  const position = m ? Number(m[1]) : undefined;
  const inString = endsInsideString(trimmed);
  const truncated =
    atEnd &&
    (/Unexpected end|Unterminated/i.test(reason) || (position !== undefined && position >= trimmed.length) || inString);
  const at = truncated ? trimmed.length : position;
  let where = '';
  if (at !== undefined) {
    const before = text.slice(0, at);
    const line = firstLine + before.split('\n').length - 1;
    const column = at - before.lastIndexOf('\n');
    where = ` (line ${line}, column ${column})`;
  }
  if (truncated) {
    return `not valid JSON: the input ends ${inString ? 'inside a string' : 'before its objects and arrays are closed'}${where}; the file looks truncated (${reason})`;
  }
  return `not valid JSON: ${reason}${where}`;
}

/** The longest parser message kept: parsers quote the token at fault, which may be a 100 MB literal. */
const MAX_MESSAGE = 500;

// Characters of the input a parser quotes that would drive a terminal or break the line: controls, bidi overrides, line separators.
const UNPRINTABLE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

/** A parser's message, cut to {@link MAX_MESSAGE} characters, the input's unprintable characters in it shown as `\uXXXX`. */
export function safeMessage(message: string): string {
  const short =
    message.length <= MAX_MESSAGE ? message : `${message.slice(0, MAX_MESSAGE)}… (${message.length} characters)`;
  return short.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

import { expect } from 'vitest';
import { ToolkitError } from '../../src/errors.js';

/** The `serialization` error `fn` throws (a failed expectation when it throws none or another). */
export function serializationError(fn: () => unknown): ToolkitError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolkitError);
    expect((e as ToolkitError).code).toBe('serialization');
    return e as ToolkitError;
  }
  throw new Error('expected a serialization error');
}

import { describe, expect, it } from 'vitest';
import { FORMATS, formatInfo } from '../../src/formats.js';
import { SERIALIZERS, serializerFor } from '../../src/serialize/serializers.js';
import type { FormatName } from '../../src/formats.js';

describe('serializers', () => {
  it('has one serialiser per format, in the order of FORMATS, agreeing with formatInfo', () => {
    expect([...SERIALIZERS.keys()]).toEqual(FORMATS.map((f) => f.format));
    for (const f of FORMATS) {
      const s = serializerFor(f.format);
      expect(s.format).toBe(f.format);
      expect(s.mediaType).toBe(formatInfo(f.format).mediaType);
      expect(s.extensions).toEqual(f.extensions);
    }
  });

  it('serializerFor refuses an unknown format', () => {
    expect(() => serializerFor('n3' as FormatName)).toThrow(
      expect.objectContaining({ code: 'unsupported-media-type' }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { SharedBuffers, isShared } from '../../src/pipeline/SharedBuffers.js';

describe('SharedBuffers: shared memory taken, given back and taken again', () => {
  it('takes a buffer given back when it is large enough (the smallest such), else makes one of the size asked', () => {
    const pool = new SharedBuffers(4);
    const a = pool.take(100);
    const b = pool.take(300);
    expect(a.byteLength).toBe(100);
    expect(b.byteLength).toBe(300);
    pool.give(b);
    pool.give(a);
    expect(pool.take(50)).toBe(a);
    expect(pool.take(200)).toBe(b);
    expect(pool.take(400).byteLength).toBe(400);
    expect(pool.size).toBe(0);
  });

  it('holds at most `keep` free (the largest), and a buffer given twice once', () => {
    const pool = new SharedBuffers(2);
    const [s, m, l] = [pool.take(10), pool.take(20), pool.take(30)];
    pool.give(m);
    pool.give(m);
    expect(pool.size).toBe(1);
    pool.give(s);
    pool.give(l);
    expect(pool.size).toBe(2);
    expect(pool.take(1)).toBe(m);
    expect(pool.take(1)).toBe(l);
  });

  it('tells bytes in shared memory from bytes of their own', () => {
    expect(isShared(new Uint8Array(new SharedArrayBuffer(8), 2, 4))).toBe(true);
    expect(isShared(Buffer.alloc(8))).toBe(false);
    expect(isShared(new Float64Array(2))).toBe(false);
  });
});

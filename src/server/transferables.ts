/** Buffers smaller than this are copied rather than transferred (they may share a pool). */
const MIN_TRANSFER_BYTES = 4096;

/**
 * The buffers of plain data (such as a part of a catalogue read by a worker)
 * to transfer rather than copy when posting it: the buffer of every typed
 * array or Buffer in it, found by walking it, so that none can be forgotten.
 * Small buffers (below 4 KiB) are left to be copied.
 */
export function transferables(data: unknown): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (ArrayBuffer.isView(value)) {
      if (value.buffer instanceof ArrayBuffer && value.buffer.byteLength >= MIN_TRANSFER_BYTES)
        buffers.add(value.buffer);
      return;
    }
    const items = Array.isArray(value) ? value : Object.values(value);
    for (let i = 0; i < items.length; i++) visit(items[i]);
  };
  visit(data);
  return [...buffers];
}

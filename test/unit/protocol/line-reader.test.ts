// The controller's line reader: messages split anywhere between chunks, several in one chunk,
// characters split between chunks, and a bad line skipped.
import { describe, expect, it } from 'vitest';
import { lineReader } from '../../../src/protocol/rpc.js';

function read(chunks: Buffer[]): { messages: unknown[]; bad: string[] } {
  const messages: unknown[] = [];
  const bad: string[] = [];
  const feed = lineReader((m) => messages.push(m), (l) => bad.push(l));
  for (const chunk of chunks) feed(chunk);
  return { messages, bad };
}

describe('lineReader', () => {
  it('reads messages however the bytes are cut', () => {
    const text = Buffer.from('{"a":1}\n{"name":"jöb ✓"}\n\nnot json\n{"b":[2]}\n{"c":');
    for (let size = 1; size <= text.length; size++) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.subarray(i, i + size));
      expect(read(chunks)).toEqual({ messages: [{ a: 1 }, { name: 'jöb ✓' }, { b: [2] }], bad: ['not json'] });
    }
  });

  it('reads a large message arriving in many chunks', () => {
    const big = { jobs: Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `job${i}` })) };
    const text = Buffer.from(`${JSON.stringify(big)}\n`);
    const chunks: Buffer[] = [];
    for (let i = 0; i < text.length; i += 65536) chunks.push(text.subarray(i, i + 65536));
    expect(read(chunks).messages).toEqual([big]);
  });
});

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

describe('lineReader with a limit', () => {
  function limited(max: number, chunks: Buffer[]) {
    const messages: unknown[] = [];
    const cuts: Array<[number, number]> = [];
    const deltas: number[] = [];
    const feed = lineReader((m) => messages.push(m), () => {}, {
      maxBytes: () => max,
      onTooLong: (bytes, limit) => cuts.push([bytes, limit]),
      onHeld: (delta) => deltas.push(delta),
    });
    for (const chunk of chunks) feed(chunk);
    return { messages, cuts, held: feed.held, heldSum: deltas.reduce((a, b) => a + b, 0) };
  }

  it('takes a line of exactly the limit, and stops at the first byte past it however the bytes are cut', () => {
    const ok = Buffer.from(`${JSON.stringify({ s: 'x'.repeat(20) })}\n`); // 29 bytes and the newline
    const text = Buffer.concat([ok, Buffer.from(`{"s":"${'y'.repeat(40)}`), ok]);
    for (let size = 1; size <= text.length; size++) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.subarray(i, i + size));
      const r = limited(ok.length - 1, chunks);
      expect(r.messages).toEqual([{ s: 'x'.repeat(20) }]);
      expect(r.cuts).toHaveLength(1);
      expect(r.cuts[0]![0]).toBeGreaterThan(ok.length - 1);
      expect(r.cuts[0]![0]).toBeLessThanOrEqual(ok.length - 1 + size);
      // Nothing is held after the cut, and the budget got every byte back.
      expect([r.held, r.heldSum]).toEqual([0, 0]);
    }
  });

  it('reports the bytes held for an unfinished line', () => {
    const r = limited(100, [Buffer.from('{"a":'), Buffer.from('1}\n{"b"')]);
    expect(r.messages).toEqual([{ a: 1 }]);
    expect([r.held, r.heldSum]).toEqual([4, 4]);
  });

  it('a stopped reader drops what it held and reads nothing more', () => {
    const feed = lineReader(() => expect.unreachable(), () => {});
    feed(Buffer.from('{"a":'));
    expect(feed.held).toBe(5);
    feed.stop();
    feed(Buffer.from('1}\n'));
    expect(feed.held).toBe(0);
  });
});

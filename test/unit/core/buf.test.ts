import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Bitstr } from '../../../src/core/bitstr.js';
import { Buf, BufUnpackError } from '../../../src/core/buf.js';
import { TSLURM_PROTOCOL_VERSION, protocolVersion } from '../../../src/core/protocol-version.js';
import { NO_VAL } from '../../../src/core/slurm-constants.js';

function reader(buf: Buf): Buf {
  return Buf.fromBytes(buf.getBuffer(), buf.protocolVersion);
}

function hex(buf: Buf): string {
  return Buffer.from(buf.getBuffer()).toString('hex');
}

describe('protocol version', () => {
  it('travels with the buffer', () => {
    const buf = new Buf(protocolVersion(1, 7));
    expect(buf.protocolVersion).toBe(0x107);
    expect(new Buf().protocolVersion).toBe(TSLURM_PROTOCOL_VERSION);
    expect(Buf.fromBytes(new Uint8Array(0), 0x105).protocolVersion).toBe(0x105);
  });
});

describe('integers', () => {
  it('are big-endian, as Slurm packs them', () => {
    const buf = new Buf();
    buf.pack8(0xab);
    buf.pack16(0x1234);
    buf.pack32(0xdeadbeef);
    buf.pack64(0x0102030405060708n);
    expect(hex(buf)).toBe('ab' + '1234' + 'deadbeef' + '0102030405060708');
    expect(buf.offset).toBe(15);
  });

  it('round-trip at the edges of each width', () => {
    const buf = new Buf();
    buf.pack16(0);
    buf.pack16(0xffff);
    buf.pack32(0);
    buf.pack32(NO_VAL);
    buf.pack32(0xffffffff);
    buf.pack64(0n);
    buf.pack64(0xffffffffffffffffn);
    buf.pack64(4000);
    const r = reader(buf);
    expect([r.unpack16(), r.unpack16()]).toEqual([0, 0xffff]);
    expect([r.unpack32(), r.unpack32(), r.unpack32()]).toEqual([0, NO_VAL, 0xffffffff]);
    expect([r.unpack64(), r.unpack64(), r.unpack64()]).toEqual([0n, 0xffffffffffffffffn, 4000n]);
    expect(r.remaining).toBe(0);
  });

  it('refuse values that do not fit (C would truncate them silently)', () => {
    const buf = new Buf();
    expect(() => buf.pack8(256)).toThrow(RangeError);
    expect(() => buf.pack16(0x10000)).toThrow(RangeError);
    expect(() => buf.pack32(-1)).toThrow(RangeError);
    expect(() => buf.pack32(1.5)).toThrow(RangeError);
    expect(() => buf.pack64(-1n)).toThrow(RangeError);
    expect(() => buf.pack64(2n ** 64n)).toThrow(RangeError);
    expect(buf.offset).toBe(0);
  });
});

describe('bool, time, double', () => {
  it('packs bool as one byte and reads any non-zero byte as true', () => {
    const buf = new Buf();
    buf.packBool(true);
    buf.packBool(false);
    expect(hex(buf)).toBe('0100');
    const r = Buf.fromBytes(Uint8Array.of(1, 0, 7), TSLURM_PROTOCOL_VERSION);
    expect([r.unpackBool(), r.unpackBool(), r.unpackBool()]).toEqual([true, false, true]);
  });

  it('packs time as signed 64-bit seconds', () => {
    const buf = new Buf();
    buf.packTime(1_795_305_672);
    buf.packTime(0);
    buf.packTime(-1);
    expect(hex(buf)).toBe('000000006b0230c8' + '0000000000000000' + 'ffffffffffffffff');
    const r = reader(buf);
    expect([r.unpackTime(), r.unpackTime(), r.unpackTime()]).toEqual([1_795_305_672, 0, -1]);
    expect(() => buf.packTime(1.5)).toThrow(RangeError);
  });

  it('refuses a time that a number cannot hold exactly', () => {
    const r = Buf.fromBytes(Uint8Array.of(0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), TSLURM_PROTOCOL_VERSION);
    expect(() => r.unpackTime()).toThrow(BufUnpackError);
  });

  it('keeps a double bit for bit', () => {
    const buf = new Buf();
    for (const value of [0, -0, 1.5, 0.1, Math.PI, -1e300, Infinity, NaN]) buf.packDouble(value);
    expect(hex(buf).slice(0, 16)).toBe('0000000000000000');
    const r = reader(buf);
    const back = Array.from({ length: 8 }, () => r.unpackDouble());
    expect(back).toEqual([0, -0, 1.5, 0.1, Math.PI, -1e300, Infinity, NaN]);
    expect(Object.is(back[1], -0)).toBe(true);
  });
});

describe('strings (packstr)', () => {
  it("counts the trailing NUL, so '' and null stay apart", () => {
    const buf = new Buf();
    buf.packStr('ab');
    buf.packStr('');
    buf.packStr(null);
    expect(hex(buf)).toBe('00000003' + '616200' + '00000001' + '00' + '00000000');
    const r = reader(buf);
    expect([r.unpackStr(), r.unpackStr(), r.unpackStr()]).toEqual(['ab', '', null]);
  });

  it('encodes UTF-8 and counts bytes, not characters', () => {
    const buf = new Buf();
    buf.packStr('né✓');
    expect(reader(buf).unpack32()).toBe(1 + 2 + 3 + 1);
    expect(reader(buf).unpackStr()).toBe('né✓');
  });

  it('rejects a string without its NUL or with bad UTF-8', () => {
    const noNul = Buf.fromBytes(Uint8Array.of(0, 0, 0, 2, 0x61, 0x62), TSLURM_PROTOCOL_VERSION);
    expect(() => noNul.unpackStr()).toThrow('not NUL-terminated');
    const badUtf8 = Buf.fromBytes(Uint8Array.of(0, 0, 0, 2, 0xff, 0), TSLURM_PROTOCOL_VERSION);
    expect(() => badUtf8.unpackStr()).toThrow(BufUnpackError);
  });

  it('round-trips any string', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ unit: 'grapheme' }), { nil: null }), (value) => {
        const buf = new Buf(TSLURM_PROTOCOL_VERSION, 8);
        buf.packStr(value);
        expect(reader(buf).unpackStr()).toBe(value);
      }),
    );
  });
});

describe('mem, string arrays and u32 arrays', () => {
  it('packs mem as a length and bytes, null as length 0', () => {
    const buf = new Buf();
    buf.packMem(Uint8Array.of(9, 8));
    buf.packMem(null);
    buf.packMem(new Uint8Array(0));
    expect(hex(buf)).toBe('000000020908' + '00000000' + '00000000');
    const r = reader(buf);
    expect(r.unpackMem()).toEqual(Uint8Array.of(9, 8));
    expect(r.unpackMem()).toBeNull();
    expect(r.unpackMem()).toBeNull();
  });

  it('packs a string array as a count and packstr elements', () => {
    const buf = new Buf();
    buf.packStrArray(['A=1', '']);
    buf.packStrArray([]);
    buf.packStrArray(null);
    expect(hex(buf)).toBe('00000002' + '00000004' + '413d3100' + '00000001' + '00' + '00000000' + '00000000');
    const r = reader(buf);
    expect([r.unpackStrArray(), r.unpackStrArray(), r.unpackStrArray()]).toEqual([['A=1', ''], [], []]);
  });

  it('refuses a null element and a count larger than the data', () => {
    const nullElement = Buf.fromBytes(Uint8Array.of(0, 0, 0, 1, 0, 0, 0, 0), TSLURM_PROTOCOL_VERSION);
    expect(() => nullElement.unpackStrArray()).toThrow('element 0 is null');
    const hugeCount = Buf.fromBytes(Uint8Array.of(0xff, 0xff, 0xff, 0xf0, 0, 0, 0, 0), TSLURM_PROTOCOL_VERSION);
    expect(() => hugeCount.unpackStrArray()).toThrow(BufUnpackError);
    const hugeU32 = Buf.fromBytes(Uint8Array.of(0, 0, 0, 3, 0, 0, 0, 1), TSLURM_PROTOCOL_VERSION);
    expect(() => hugeU32.unpack32Array()).toThrow(BufUnpackError);
  });

  it('round-trips u32 arrays', () => {
    const buf = new Buf();
    buf.pack32Array([1, NO_VAL, 0]);
    buf.pack32Array([]);
    const r = reader(buf);
    expect(r.unpack32Array()).toEqual([1, NO_VAL, 0]);
    expect(r.unpack32Array()).toEqual([]);
  });
});

describe('bitmaps', () => {
  it('packs null as the NO_VAL bit count and nothing else', () => {
    const buf = new Buf();
    buf.packBitstr(null);
    expect(hex(buf)).toBe('fffffffe');
    expect(reader(buf).unpackBitstr()).toBeNull();
  });

  it('packs the bit count, then the bytes of the bitmap', () => {
    const bits = new Bitstr(10);
    bits.set(0);
    bits.set(9);
    const buf = new Buf();
    buf.packBitstr(bits);
    const r = reader(buf);
    expect(r.unpack32()).toBe(10);
    expect(r.unpackMem()).toEqual(bits.toBytes());
    const back = reader(buf).unpackBitstr()!;
    expect(back.size).toBe(10);
    expect(Array.from({ length: 10 }, (_, i) => back.test(i))).toEqual([
      true, false, false, false, false, false, false, false, false, true,
    ]);
  });

  it('round-trips an empty bitmap and random ones', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.array(fc.nat(299)), (nbits, setBits) => {
        const bits = new Bitstr(nbits);
        const expected = new Set(setBits.filter((i) => i < nbits));
        for (const i of expected) bits.set(i);
        const buf = new Buf();
        buf.packBitstr(bits);
        const back = reader(buf).unpackBitstr()!;
        expect(back.size).toBe(nbits);
        const indexes = Array.from({ length: nbits }, (_, i) => i);
        expect(indexes.filter((i) => back.test(i))).toEqual(indexes.filter((i) => expected.has(i)));
      }),
    );
  });

  it('refuses a byte count that does not match the bit count', () => {
    const short = Buf.fromBytes(Uint8Array.of(0, 0, 0, 64, 0, 0, 0, 1, 0xff), TSLURM_PROTOCOL_VERSION);
    expect(() => short.unpackBitstr()).toThrow('unpackBitstr: 1 bytes for 64 bits, expected 8');
    const long = Buf.fromBytes(Uint8Array.of(0, 0, 0, 1, 0, 0, 0, 2, 0x01, 0), TSLURM_PROTOCOL_VERSION);
    expect(() => long.unpackBitstr()).toThrow(BufUnpackError);
  });
});

describe('reading past the end', () => {
  it('throws BufUnpackError (not a UserError) naming what and where', () => {
    const r = Buf.fromBytes(Uint8Array.of(1, 2), TSLURM_PROTOCOL_VERSION);
    expect(() => r.unpack32()).toThrowErrorMatchingInlineSnapshot(
      `[BufUnpackError: unpack32: needs 4 bytes at offset 0, only 2 left]`,
    );
    expect(r.unpack16()).toBe(0x0102);
    expect(() => r.unpack8()).toThrow(BufUnpackError);
  });

  it.each([
    ['unpack8', (b: Buf) => b.unpack8()],
    ['unpack64', (b: Buf) => b.unpack64()],
    ['unpackTime', (b: Buf) => b.unpackTime()],
    ['unpackDouble', (b: Buf) => b.unpackDouble()],
    ['unpackStr', (b: Buf) => b.unpackStr()],
    ['unpackStrArray', (b: Buf) => b.unpackStrArray()],
    ['unpackBitstr', (b: Buf) => b.unpackBitstr()],
  ])('%s on an empty buffer', (_name, unpack) => {
    expect(() => unpack(Buf.fromBytes(new Uint8Array(0), TSLURM_PROTOCOL_VERSION))).toThrow(BufUnpackError);
  });

  it('refuses a string longer than the data', () => {
    const r = Buf.fromBytes(Uint8Array.of(0, 0, 0, 9, 0x61, 0), TSLURM_PROTOCOL_VERSION);
    expect(() => r.unpackStr()).toThrow('unpackMem: needs 9 bytes at offset 4, only 2 left');
  });

  it('fails on every truncation of a valid message', () => {
    const buf = new Buf();
    buf.pack32(7);
    buf.packStr('hello');
    buf.packStrArray(['a', 'b']);
    buf.packTime(1);
    const bytes = buf.getBuffer();
    for (let cut = 0; cut < bytes.length; cut += 1) {
      const r = Buf.fromBytes(bytes.subarray(0, cut), TSLURM_PROTOCOL_VERSION);
      expect(() => {
        r.unpack32();
        r.unpackStr();
        r.unpackStrArray();
        r.unpackTime();
      }, `cut at ${cut}`).toThrow(BufUnpackError);
    }
  });
});

describe('the buffer itself', () => {
  it('grows past its initial size', () => {
    const buf = new Buf(TSLURM_PROTOCOL_VERSION, 1);
    for (let i = 0; i < 1000; i += 1) buf.pack32(i);
    expect(buf.getBuffer().length).toBe(4000);
    const r = reader(buf);
    for (let i = 0; i < 1000; i += 1) expect(r.unpack32()).toBe(i);
  });

  it('lets a header be patched after the body is packed', () => {
    const buf = new Buf();
    buf.pack32(0); // length placeholder
    buf.packStr('body');
    const end = buf.offset;
    buf.offset = 0;
    buf.pack32(end - 4);
    buf.offset = end;
    expect(buf.getBuffer().length).toBe(end);
    const r = reader(buf);
    expect(r.unpack32()).toBe(end - 4);
    expect(r.unpackStr()).toBe('body');
  });

  it('refuses an offset outside the data', () => {
    const buf = new Buf();
    buf.pack16(1);
    expect(() => (buf.offset = 3)).toThrow(RangeError);
    expect(() => (buf.offset = -1)).toThrow(RangeError);
  });

  it('gives a copy from getBuffer and copies what fromBytes is given', () => {
    const source = Uint8Array.of(0, 1);
    const r = Buf.fromBytes(source, TSLURM_PROTOCOL_VERSION);
    source[1] = 9;
    expect(r.unpack16()).toBe(1);
    const out = r.getBuffer();
    out[0] = 5;
    expect(r.getBuffer()[0]).toBe(0);
    expect(r.remaining).toBe(0);
  });
});

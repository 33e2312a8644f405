// tslurm's Buf, after Slurm's buf_t (src/common/pack.c): a growable byte buffer written
// and read front to back at `offset`, big-endian like Slurm's network byte order, carrying
// the protocol version its contents are in so unpack code can branch on it.
//
// Wire forms (what a reader of a packed state file needs to know):
//   u8/u16/u32/u64   big-endian unsigned; bool is a u8 0/1
//   time             i64 seconds since the epoch (pack_time)
//   double           IEEE-754 binary64, big-endian. Slurm multiplies by FLOAT_MULT first;
//                    we keep the exact bits instead, since tslurm never talks to slurmctld.
//   mem              u32 byte count, then the bytes; count 0 is null (packmem)
//   str              mem of the UTF-8 bytes plus a trailing NUL, so '' is count 1 and
//                    null is count 0, the way packstr tells NULL from "" apart
//   str array        u32 element count, then each element as str (packstr_array)
//   u32 array        u32 element count, then each element as u32 (pack32_array)
//   bitstr           u32 bit count, NO_VAL for a null bitmap, then (non-null only) a mem
//                    of Bitstr.toBytes(). Slurm's pack_bit_str_hex sends a hex string
//                    after the count; a length-prefixed binary form is shorter and can be
//                    checked against the count on the way in.
import { Bitstr } from './bitstr.js';
import { TSLURM_PROTOCOL_VERSION } from './protocol-version.js';
import { NO_VAL } from './slurm-constants.js';

/**
 * Reading ran past the end or met malformed data. This is deliberately not a UserError:
 * a truncated or corrupt message is data, and the receiver decides what it means to the
 * user (SLURM_COMMUNICATIONS_RECEIVE_ERROR for an RPC, a bad state file on start-up).
 */
export class BufUnpackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BufUnpackError';
  }
}

// Slurm's MAX_ARRAY_LEN_MEDIUM: a corrupt count must fail rather than allocate forever.
const MAX_ARRAY_LEN = 1_000_000;
const INITIAL_SIZE = 256;

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Slurm's `buf_t`: pack with `pack8`..`pack64`, `packBool`, `packTime`, `packStr`,
 * `packStrArray`, `pack32Array`, `packMem`, `packBitstr`; read back in the same order with the
 * `unpack*` twins, which throw BufUnpackError on truncated or malformed data. `getBuffer()`
 * gives the bytes, `Buf.fromBytes(bytes, version)` reads them.
 */
export class Buf {
  protocolVersion: number;
  private bytes: Uint8Array;
  private view: DataView;
  /** End of valid data: what getBuffer() returns and how far unpacking may read. */
  private end = 0;
  private position = 0;

  constructor(protocolVersion = TSLURM_PROTOCOL_VERSION, initialSize = INITIAL_SIZE) {
    this.protocolVersion = protocolVersion;
    this.bytes = new Uint8Array(Math.max(initialSize, 8));
    this.view = new DataView(this.bytes.buffer);
  }

  /** A buffer to unpack `bytes` (copied) that were packed at `protocolVersion`. */
  static fromBytes(bytes: Uint8Array, protocolVersion: number): Buf {
    const buf = new Buf(protocolVersion, bytes.length);
    buf.bytes.set(bytes);
    buf.end = bytes.length;
    return buf;
  }

  /** Where the next pack writes or unpack reads. May be moved back to patch a header. */
  get offset(): number {
    return this.position;
  }

  set offset(value: number) {
    if (!Number.isInteger(value) || value < 0 || value > this.end) {
      throw new RangeError(`offset ${value} outside 0..${this.end}`);
    }
    this.position = value;
  }

  /** Bytes left to unpack. */
  get remaining(): number {
    return this.end - this.position;
  }

  /** A copy of everything packed so far. */
  getBuffer(): Uint8Array {
    return this.bytes.slice(0, this.end);
  }

  pack8(value: number): void {
    checkUint('pack8', value, 0xff);
    const at = this.reserve(1);
    this.view.setUint8(at, value);
  }

  unpack8(): number {
    return this.view.getUint8(this.take(1, 'unpack8'));
  }

  pack16(value: number): void {
    checkUint('pack16', value, 0xffff);
    const at = this.reserve(2);
    this.view.setUint16(at, value);
  }

  unpack16(): number {
    return this.view.getUint16(this.take(2, 'unpack16'));
  }

  pack32(value: number): void {
    checkUint('pack32', value, 0xffff_ffff);
    const at = this.reserve(4);
    this.view.setUint32(at, value);
  }

  unpack32(): number {
    return this.view.getUint32(this.take(4, 'unpack32'));
  }

  /** Takes a bigint, or a number for convenience; unpack64 always returns a bigint. */
  pack64(value: bigint | number): void {
    const big = BigInt(value);
    if (big < 0n || big > 0xffff_ffff_ffff_ffffn) throw new RangeError(`pack64: ${value} is not a uint64`);
    const at = this.reserve(8);
    this.view.setBigUint64(at, big);
  }

  unpack64(): bigint {
    return this.view.getBigUint64(this.take(8, 'unpack64'));
  }

  packBool(value: boolean): void {
    this.pack8(value ? 1 : 0);
  }

  /** Any non-zero byte is true, as unpackbool reads it. */
  unpackBool(): boolean {
    return this.unpack8() !== 0;
  }

  /** Seconds since the epoch, as a signed 64-bit value (pack_time). */
  packTime(seconds: number): void {
    if (!Number.isSafeInteger(seconds)) throw new RangeError(`packTime: ${seconds} is not whole seconds`);
    const at = this.reserve(8);
    this.view.setBigInt64(at, BigInt(seconds));
  }

  unpackTime(): number {
    const seconds = this.view.getBigInt64(this.take(8, 'unpackTime'));
    if (seconds > BigInt(Number.MAX_SAFE_INTEGER) || seconds < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new BufUnpackError(`unpackTime: ${seconds} is out of range`);
    }
    return Number(seconds);
  }

  packDouble(value: number): void {
    const at = this.reserve(8);
    this.view.setFloat64(at, value);
  }

  unpackDouble(): number {
    return this.view.getFloat64(this.take(8, 'unpackDouble'));
  }

  /** A u32 length and the bytes; null packs as length 0 (packmem). */
  packMem(data: Uint8Array | null): void {
    const length = data?.length ?? 0;
    this.pack32(length);
    if (data && length) {
      const at = this.reserve(length);
      this.bytes.set(data, at);
    }
  }

  /** The bytes packed by packMem (a copy), or null for length 0. */
  unpackMem(): Uint8Array | null {
    const length = this.unpack32();
    if (length === 0) return null;
    const at = this.take(length, 'unpackMem');
    return this.bytes.slice(at, at + length);
  }

  /** packstr: null and '' stay distinct (length 0 vs a lone NUL). */
  packStr(value: string | null): void {
    if (value === null) return this.packMem(null);
    const encoded = utf8.encode(value);
    const withNul = new Uint8Array(encoded.length + 1);
    withNul.set(encoded);
    this.packMem(withNul);
  }

  unpackStr(): string | null {
    const start = this.position;
    const data = this.unpackMem();
    if (data === null) return null;
    if (data[data.length - 1] !== 0) {
      throw new BufUnpackError(`unpackStr: string at offset ${start} is not NUL-terminated`);
    }
    try {
      return strictUtf8.decode(data.subarray(0, data.length - 1));
    } catch {
      throw new BufUnpackError(`unpackStr: string at offset ${start} is not valid UTF-8`);
    }
  }

  /** packstr_array. Slurm unpacks a count of 0 as NULL; we give [] for both. */
  packStrArray(values: readonly string[] | null): void {
    this.pack32(values?.length ?? 0);
    for (const value of values ?? []) this.packStr(value);
  }

  unpackStrArray(): string[] {
    const count = this.unpackCount('unpackStrArray', 4);
    const values: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const value = this.unpackStr();
      // packStrArray never writes a null element; one here means the data is not ours.
      if (value === null) throw new BufUnpackError(`unpackStrArray: element ${i} is null`);
      values.push(value);
    }
    return values;
  }

  pack32Array(values: readonly number[]): void {
    this.pack32(values.length);
    for (const value of values) this.pack32(value);
  }

  unpack32Array(): number[] {
    const count = this.unpackCount('unpack32Array', 4);
    return Array.from({ length: count }, () => this.unpack32());
  }

  /** A bitmap or null: u32 bit count (NO_VAL for null), then the bitmap's bytes as mem. */
  packBitstr(bits: Bitstr | null): void {
    if (bits === null) return this.pack32(NO_VAL);
    this.pack32(bits.size);
    this.packMem(bits.toBytes());
  }

  unpackBitstr(): Bitstr | null {
    const nbits = this.unpack32();
    if (nbits === NO_VAL) return null;
    const bytes = this.unpackMem() ?? new Uint8Array(0);
    const expected = Math.ceil(nbits / 8);
    if (bytes.length !== expected) {
      throw new BufUnpackError(`unpackBitstr: ${bytes.length} bytes for ${nbits} bits, expected ${expected}`);
    }
    try {
      return Bitstr.fromBytes(nbits, bytes);
    } catch (error) {
      throw new BufUnpackError(`unpackBitstr: ${(error as Error).message}`);
    }
  }

  // An element count, refused when the remaining bytes could not hold that many elements.
  private unpackCount(what: string, minElementSize: number): number {
    const count = this.unpack32();
    if (count > MAX_ARRAY_LEN || count * minElementSize > this.remaining) {
      throw new BufUnpackError(`${what}: count ${count} is larger than the data (${this.remaining} bytes left)`);
    }
    return count;
  }

  // Makes room for `size` bytes at the offset and moves past them; returns where they go.
  // Growing replaces this.bytes and this.view, so callers must call this before reading either.
  private reserve(size: number): number {
    const at = this.position;
    if (at + size > this.bytes.length) this.grow(at + size);
    this.position = at + size;
    this.end = Math.max(this.end, this.position);
    return at;
  }

  private grow(needed: number): void {
    let size = this.bytes.length * 2;
    while (size < needed) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.bytes.subarray(0, this.end));
    this.bytes = bigger;
    this.view = new DataView(bigger.buffer);
  }

  private take(size: number, what: string): number {
    if (size > this.remaining) {
      throw new BufUnpackError(
        `${what}: needs ${size} bytes at offset ${this.position}, only ${this.remaining} left`,
      );
    }
    const at = this.position;
    this.position += size;
    return at;
  }
}

// Packing a value that does not fit is a caller bug; Slurm's C would truncate it silently.
function checkUint(what: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${what}: ${value} is not an integer in 0..${max}`);
  }
}

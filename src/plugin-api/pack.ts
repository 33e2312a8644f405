/**
 * Packing, as Slurm's `buf_t` (src/common/pack.c): `Buf` is a growable byte buffer written
 * and read front to back, big-endian, tagged with the protocol version its contents are in
 * (`pack32`/`unpack32`, `packStr`/`unpackStr`, `packBitstr`/`unpackBitstr`, ...). The select plugin's
 * `*_pack`/`*_unpack` functions and the auth plugin's credentials use it; an unpack that runs
 * past the end or meets malformed data throws `BufUnpackError`.
 */
export { Buf, BufUnpackError } from '../core/buf.js';

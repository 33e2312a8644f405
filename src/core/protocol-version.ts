// tslurm's protocol version, packed at the head of every RPC and state file the way Slurm
// packs SLURM_PROTOCOL_VERSION. Slurm derives it as ((API_MAJOR + API_AGE) << 8) | API_AGE;
// tslurm keeps the same two-byte shape with a plain major and minor.

/** A protocol version number: major in the high byte, minor in the low one. */
export function protocolVersion(major: number, minor: number): number {
  return ((major & 0xff) << 8) | (minor & 0xff);
}

/**
 * The version this build writes. Bump it whenever a packed layout changes; unpack code
 * branches on `buf.protocolVersion` to keep reading the older layouts it still supports.
 */
export const TSLURM_PROTOCOL_VERSION = protocolVersion(1, 0);
/** The oldest version this build can still read. */
export const MIN_PROTOCOL_VERSION = TSLURM_PROTOCOL_VERSION;

/** Whether data packed at `version` can be read by this build. */
export function isSupportedProtocolVersion(version: number): boolean {
  return version >= MIN_PROTOCOL_VERSION && version <= TSLURM_PROTOCOL_VERSION;
}

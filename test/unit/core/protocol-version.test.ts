import { describe, expect, it } from 'vitest';
import {
  MIN_PROTOCOL_VERSION,
  TSLURM_PROTOCOL_VERSION,
  isSupportedProtocolVersion,
  protocolVersion,
} from '../../../src/core/protocol-version.js';

describe('protocol version', () => {
  it('puts major in the high byte and minor in the low one', () => {
    expect(protocolVersion(1, 0)).toBe(0x100);
    expect(protocolVersion(2, 3)).toBe(0x203);
    expect(TSLURM_PROTOCOL_VERSION).toBe(1 << 8);
  });

  it('accepts versions from MIN_PROTOCOL_VERSION up to the current one', () => {
    expect(MIN_PROTOCOL_VERSION).toBeLessThanOrEqual(TSLURM_PROTOCOL_VERSION);
    expect(isSupportedProtocolVersion(TSLURM_PROTOCOL_VERSION)).toBe(true);
    expect(isSupportedProtocolVersion(MIN_PROTOCOL_VERSION)).toBe(true);
    expect(isSupportedProtocolVersion(MIN_PROTOCOL_VERSION - 1)).toBe(false);
    expect(isSupportedProtocolVersion(protocolVersion(2, 0))).toBe(false);
  });
});

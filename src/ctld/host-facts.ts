// What slurmd reports of its host when it registers and is pinged, read live for the nodes the
// controller emulates on this host: the architecture and OS (`uname -m`, `uname -srv`), the
// 1-minute load, the memory available, when the host booted, and when the node daemon came up
// (for emulated nodes, the controller serving them).
import os from 'node:os';
import type { NodeHostFacts } from '../protocol/node-info.js';

const startedAt = Math.floor(Date.now() / 1000 - process.uptime());

export function hostFacts(): NodeHostFacts {
  const now = Date.now() / 1000;
  return {
    arch: os.machine(),
    os: `${os.type()} ${os.release()} ${os.version()}`,
    cpuLoad: os.loadavg()[0] ?? 0,
    freeMem: Math.floor(os.freemem() / (1024 * 1024)),
    bootTime: Math.floor(now - os.uptime()),
    slurmdStartTime: startedAt,
  };
}

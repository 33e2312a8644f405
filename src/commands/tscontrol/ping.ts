// scontrol ping: "Slurmctld(primary) at HOST is UP", exit 0. A cluster without a
// control.address has its controller started on demand, as a submission starts it, so a script
// that pings first finds it up whenever the cluster is usable; a TCP controller is never
// started from here, and one that does not answer is DOWN with scontrol's banner, exit 1.
import { hostname } from 'node:os';
import { loadCluster } from '../../config/load.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { connectController } from '../../client/ctld-client.js';

// scontrol 22.05 under a controller that does not answer (observed), on standard output.
const RESTORE = [
  '*****************************************',
  '** RESTORE SLURMCTLD DAEMON TO SERVICE **',
  '*****************************************',
];

export async function ping(cluster: string | undefined): Promise<number> {
  const config = await loadCluster({ file: cluster });
  const host = config.control.host ?? hostname().split('.')[0];
  let up = false;
  try {
    const client = await connectController({
      config,
      stateDir: resolveStateDir(config),
      clusterFile: config.source.startsWith('/') ? config.source : undefined,
      autostart: true,
    });
    try {
      up = await client.call('ping').then(
        () => true,
        () => false,
      );
    } finally {
      client.close();
    }
  } catch {
    up = false;
  }
  const lines = [`Slurmctld(primary) at ${host} is ${up ? 'UP' : 'DOWN'}`, ...(up ? [] : RESTORE)];
  process.stdout.write(`${lines.join('\n')}\n`);
  return up ? 0 : 1;
}

// scontrol show daemons: which daemons this host is meant to run, by the cluster description
// (as scontrol reads slurm.conf): the controller when the host is the cluster's control host,
// the node daemon when a node lives here. Without a control.address both run here (the
// embedded controller and the local step host). Under Slurm's name the daemons are named
// slurmctld and slurmd (observed: `slurmctld slurmd`), under tscontrol tsctld and tsstepd.
import { hostname, networkInterfaces } from 'node:os';
import { isSlurmName } from '../../cli/slurm-names.js';
import { loadCluster } from '../../config/load.js';

export async function showDaemons(cluster: string | undefined, bin: string): Promise<string> {
  const config = await loadCluster({ file: cluster });
  const here = localNames();
  const controlHost = config.control.host;
  const ctld = controlHost === undefined || here.has(controlHost);
  const stepd = controlHost === undefined || config.nodes.some((node) => here.has(node.addr ?? node.name) || here.has(node.name));
  const names = isSlurmName(bin) ? ['slurmctld', 'slurmd'] : ['tsctld', 'tsstepd'];
  const daemons = [ctld ? names[0] : undefined, stepd ? names[1] : undefined].filter((d) => d !== undefined);
  return daemons.length > 0 ? `${daemons.join(' ')}\n` : '';
}

// The names and addresses this host answers to.
function localNames(): Set<string> {
  const full = hostname();
  const names = new Set([full, full.split('.')[0]!, 'localhost']);
  for (const list of Object.values(networkInterfaces())) for (const iface of list ?? []) names.add(iface.address);
  return names;
}

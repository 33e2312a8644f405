// `tsrun --mpi=list`: the mpi plugins the search path offers, in srun's layout (stdout).
import { loadCluster } from '../../config/load.js';
import { searchPathFor } from '../../plugin-host/create.js';
import { pluginInventory } from '../../plugin-host/inventory.js';

export async function listMpiTypes(clusterFile: string | undefined): Promise<number> {
  const config = await loadCluster({ file: clusterFile });
  const entries = await pluginInventory(searchPathFor(config));
  const minors = [...new Set(entries.filter((e) => e.refused === null && e.type.startsWith('mpi/')).map((e) => e.type.slice(4)))];
  // srun lists the versioned PMIx plugins (mpi/pmix_v4, ...) on a line of their own.
  const versions = minors.filter((m) => /^pmix_v\d+$/.test(m));
  const types = minors.filter((m) => !versions.includes(m));
  const specific = versions.length > 0 ? `specific pmix plugin versions available: ${versions.join(',')}\n` : '';
  process.stdout.write(`MPI plugin types are...\n${types.map((m) => `\t${m}\n`).join('')}${specific}`);
  return 0;
}

// `tsrun --mpi=list`: the mpi plugins the search path offers, in srun's layout (stdout).
import { loadCluster } from '../../config/load.js';
import { searchPathFor } from '../../plugin-host/create.js';
import { pluginInventory } from '../../plugin-host/inventory.js';

export async function listMpiTypes(clusterFile: string | undefined): Promise<number> {
  const config = await loadCluster({ file: clusterFile });
  const entries = await pluginInventory(searchPathFor(config));
  const minors = [...new Set(entries.filter((e) => e.refused === null && e.type.startsWith('mpi/')).map((e) => e.type.slice(4)))];
  process.stdout.write(`MPI plugin types are...\n${minors.map((m) => `\t${m}\n`).join('')}`);
  return 0;
}

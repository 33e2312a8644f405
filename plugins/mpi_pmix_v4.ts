// mpi/pmix_v4: Slurm's name for its PMIx plugin built against PMIx 4 (`--mpi=pmix_v4`); the
// same plugin as mpi/pmix, which Slurm installs as a link to the newest mpi_pmix_v*.
export * from './mpi_pmix.js';
export const plugin_type = 'mpi/pmix_v4';

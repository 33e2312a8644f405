/**
 * MPICH's `PMI_process_mapping` for a step, as Slurm's mpi/pmi2 builds it
 * (src/plugins/mpi/pmi2/setup.c): `(vector,(first_node,node_count,tasks_per_node),...)`.
 * An mpi plugin hands it to PMI clients; give it the step layout's `distribution`,
 * `tasksPerNode` and `tids` (each node's global task ids).
 */
export { pmiProcessMapping, type ProcessMappingLayout } from '../core/pmi-process-mapping.js';

// The environment salloc gives its command: the caller's, then the allocation's SLURM_*
// variables, gathered here and set in salloc 22.05's order by core/slurm-env.ts (observed:
// `salloc -N1 env`, `salloc -N1 -n2 env`, `salloc -N1 -c1 --mem=100 --ntasks-per-node=1 env`;
// /work/ref/env.txt). A variable already there keeps its place and takes the new value
// (setenv), as in Slurm. TSLURM_CONF and TSLURM_STATE_DIR point tsrun inside at the same
// cluster and controller, as in a batch script.
import os from 'node:os';
import { compressHostlist } from '../../core/hostlist.js';
import { compressCounts } from '../../core/tasks-per-node.js';
import { SALLOC_VARIABLES, slurmVariables, tasksPerNode } from '../../core/slurm-env.js';
import type { Grant } from '../../protocol/ctld-answers.js';
import type { StepRequest } from '../tsrun/request.js';

export interface SallocEnvFacts {
  grant: Grant;
  req: StepRequest;
  clusterName: string;
  /** SLURM_CONF: the cluster's configuration file (undefined: the built-in cluster). */
  confFile: string | undefined;
  /** The cluster file tsrun inside must load (undefined: the built-in cluster). */
  clusterFile: string | undefined;
  stateDir: string;
}

export function sallocEnv(base: NodeJS.ProcessEnv, facts: SallocEnvFacts): NodeJS.ProcessEnv {
  const { grant, req } = facts;
  const env: NodeJS.ProcessEnv = { ...base };
  const nodelist = compressHostlist(grant.nodeNames);
  // -n, or --ntasks-per-node times the nodes: salloc then exports SLURM_NTASKS.
  const ntasks = req.ntasks ?? (req.ntasksPerNode !== undefined ? req.ntasksPerNode * grant.nodeNames.length : undefined);
  const cpusPerTask = req.cpusPerTaskGiven ? req.cpusPerTask : undefined;
  const variables = slurmVariables(
    SALLOC_VARIABLES,
    {
      confFile: facts.confFile,
      ntasksPerNode: req.ntasksPerNode,
      submitDir: process.cwd(),
      submitHost: os.hostname(),
      jobId: grant.jobId,
      jobName: grant.name,
      jobNumNodes: grant.nodeNames.length,
      nnodes: grant.nodeNames.length,
      jobNodelist: nodelist,
      partition: grant.partition,
      jobCpusPerNode: compressCounts(grant.cpusPerNode),
      memPerNode: req.memPerNode,
      memPerCpu: req.memPerCpu,
      tasksPerNode: compressCounts(tasksPerNode({ ntasks, ntasksPerNode: req.ntasksPerNode, cpusPerTask }, grant.cpusPerNode)),
      account: req.extras.account,
      qos: req.extras.qos,
      ntasks,
      cpusPerTask,
      clusterName: facts.clusterName,
      clusterFile: facts.clusterFile,
      stateDir: facts.stateDir,
    },
    (name) => env[name] !== undefined,
  );
  for (const [name, value] of variables) env[name] = value;
  return env;
}

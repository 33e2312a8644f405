// The environment salloc gives its command: the caller's, then the allocation's SLURM_*
// variables in the order salloc 22.05 sets them (observed: `salloc -N1 env`, `salloc -N1 -n2
// env`, `salloc -N1 -c1 --mem=100 --ntasks-per-node=1 env`; /work/ref/env.txt). A variable
// already there keeps its place and takes the new value (setenv), as in Slurm. TSLURM_CONF and
// TSLURM_STATE_DIR point tsrun inside at the same cluster and controller, as in a batch script.
import os from 'node:os';
import { compressHostlist } from '../../core/hostlist.js';
import { compressCounts } from '../../core/tasks-per-node.js';
import { tasksPerNode } from '../../ctld/batch-env.js';
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
  const set = (name: string, value: string | number): void => {
    env[name] = String(value);
  };
  const nodelist = compressHostlist(grant.nodeNames);
  // -n, or --ntasks-per-node times the nodes: salloc then exports SLURM_NTASKS.
  const ntasks = req.ntasks ?? (req.ntasksPerNode !== undefined ? req.ntasksPerNode * grant.nodeNames.length : undefined);
  const cpusPerTask = req.cpusPerTaskGiven ? req.cpusPerTask : undefined;
  if (facts.confFile !== undefined) set('SLURM_CONF', facts.confFile);
  // salloc exports this one while it reads its options, before the allocation's.
  if (req.ntasksPerNode !== undefined) set('SLURM_NTASKS_PER_NODE', req.ntasksPerNode);
  set('SLURM_SUBMIT_DIR', process.cwd());
  set('SLURM_SUBMIT_HOST', os.hostname());
  set('SLURM_JOB_ID', grant.jobId);
  set('SLURM_JOB_NAME', grant.name);
  set('SLURM_JOB_NUM_NODES', grant.nodeNames.length);
  set('SLURM_JOB_NODELIST', nodelist);
  set('SLURM_NODE_ALIASES', '(null)');
  set('SLURM_JOB_PARTITION', grant.partition);
  set('SLURM_JOB_CPUS_PER_NODE', compressCounts(grant.cpusPerNode));
  if (req.memPerNode !== undefined) set('SLURM_MEM_PER_NODE', req.memPerNode);
  if (req.memPerCpu !== undefined) set('SLURM_MEM_PER_CPU', req.memPerCpu);
  set('SLURM_JOBID', grant.jobId);
  set('SLURM_NNODES', grant.nodeNames.length);
  set('SLURM_NODELIST', nodelist);
  set('SLURM_TASKS_PER_NODE', compressCounts(tasksPerNode({ ntasks, ntasksPerNode: req.ntasksPerNode, cpusPerTask }, grant.cpusPerNode)));
  if (req.extras.account !== undefined) set('SLURM_JOB_ACCOUNT', req.extras.account);
  if (req.extras.qos !== undefined) set('SLURM_JOB_QOS', req.extras.qos);
  if (ntasks !== undefined) {
    set('SLURM_NTASKS', ntasks);
    set('SLURM_NPROCS', ntasks);
  }
  if (cpusPerTask !== undefined) set('SLURM_CPUS_PER_TASK', cpusPerTask);
  set('SLURM_CLUSTER_NAME', facts.clusterName);
  if (facts.clusterFile !== undefined) set('TSLURM_CONF', facts.clusterFile);
  set('TSLURM_STATE_DIR', facts.stateDir);
  return env;
}

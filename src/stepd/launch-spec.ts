// What a step daemon needs to launch one node's share of a step. Plain data (no functions),
// so the same object can be handed over in-process (embedded mode) or sent to a tsstepd.
import type { NodeDistribution } from '../core/task-dist.js';
import type { RunAs } from './run-as.js';

export interface StepFacts {
  jobId: number;
  stepId: number;
  jobName: string;
  partition: string;
  clusterName: string;
  /** Every node of the step, in node-id order, and the tasks on each. */
  nodeNames: string[];
  tasksPerNode: number[];
  tids: number[][];
  ntasks: number;
  /** The job's nodes (a step may use fewer) and CPUs per node, compressed as Slurm prints them. */
  jobNodelist: string;
  jobCpusPerNode: string;
  jobNumNodes: number;
  /** -c when given (Slurm sets SLURM_CPUS_PER_TASK only then). */
  cpusPerTask: number | undefined;
  /** -m when given (Slurm sets SLURM_DISTRIBUTION only then). */
  distribution: string | undefined;
  /** How the tasks were laid out over the nodes, given or not (the mpi plugins' `task_dist`). */
  taskDist: NodeDistribution;
  mpiType: string;
  submitDir: string;
  submitHost: string;
  launchNodeAddr: string;
  umask: string;
  label: boolean;
  /** Minutes, or INFINITE. */
  timeLimit: number;
  /** SLURM_CONF: the cluster's configuration file. */
  confFile?: string;
  /** A step of an existing allocation (salloc, a batch script), not of tsrun's own job. */
  insideJob?: boolean;
  /** The job's owner (SLURM_JOB_UID, SLURM_JOB_GID, SLURM_JOB_USER). */
  jobUid?: number;
  jobGid?: number;
  jobUser?: string;
  /** SLURM_WORKING_CLUSTER: `cluster:controller host:port:protocol version:select plugin id`. */
  workingCluster?: string;
  /** tsrun's port the nodes reach it on (SLURM_SRUN_COMM_PORT), with launchNodeAddr; 0: none. */
  srunPort?: number;
}

export interface NodeLaunchSpec {
  step: StepFacts;
  /** This node's position in `step.nodeNames`. */
  nodeId: number;
  /** CPUs this job holds on this node (SLURM_CPUS_ON_NODE). */
  cpusOnNode: number;
  /** GPU indices allocated on this node, for CUDA_VISIBLE_DEVICES (empty: variable not set). */
  gpus: number[];
  /** The program of each task on this node, in local-id order (they differ only with --multi-prog). */
  argv: string[][];
  cwd: string;
  /** The environment every task starts from (tsrun's, after --export and the mpi client hook). */
  env: string[];
  /** Which tasks read tsrun's stdin, or the file each task of this node reads (local-id order). */
  stdin: 'all' | 'none' | number | { files: string[] };
  /** SIGTERM, then SIGKILL after this many seconds (Slurm's KillWait). */
  killWaitSeconds: number;
  /** The step's memory on this node in MB (--mem, or --mem-per-cpu × CPUs); 0 or absent: none asked for. */
  memLimitMb?: number;
  /** Run the tasks as this user (a root step daemon, a job not root's); absent: as ourselves. */
  runAs?: RunAs;
}

// What a step daemon needs to launch one node's share of a step. Plain data (no functions),
// built from the `launch` request a step host (a tsstepd daemon, or the embedded step host) takes.
import type { RunAs, StepFacts } from '../protocol/stepd-messages.js';

/** The facts of a step every node of it is told (its schema: protocol/stepd-messages.ts). */
export type { StepFacts };

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

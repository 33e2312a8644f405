// What the batch step daemon needs to run a job's script (slurmd's batch_job_launch_msg_t):
// written by the controller as JSON into the job's directory, read by batch-main.ts.
import path from 'node:path';

export interface BatchSpec {
  jobId: number;
  nodeName: string;
  /** The cluster's plugin settings (the daemon needs no more of the cluster file). */
  plugins: import('../plugin-host/create.js').PluginSettings;
  /** The script, already written to disk, and its arguments. */
  script: string;
  argv: string[];
  workDir: string;
  /** The script's complete environment (the job's, with the batch SLURM_* variables). */
  env: string[];
  /** Absolute paths; stderr equal to stdout means one file for both. */
  stdout: string;
  stderr: string;
  stdin: string;
  openMode: 'append' | 'truncate';
  /** SIGTERM, then SIGKILL after this many seconds (KillWait). */
  killWaitSeconds: number;
  /** The job's memory on this node in MB (--mem, or --mem-per-cpu × CPUs); 0 or absent: none asked for. */
  memLimitMb?: number;
  /** The job's user (the controller's record of who submitted it). */
  user?: { uid: number; gid: number };
  /** Run the script as this user, its groups looked up on the node (set by a root tsstepd). */
  runAs?: import('./run-as.js').RunAs;
}

/** Why the controller asked the batch step to end (written before it sends SIGTERM). */
export interface KillRequest {
  cause: 'CANCELLED' | 'TIMEOUT' | 'NODE_FAIL' | 'REQUEUE' | 'PREEMPTED' | 'PREEMPT_REQUEUE';
  /** Unix seconds. */
  at: number;
  /** Who cancelled, for `CANCELLED AT ... DUE TO ...`; unused for now. */
  by?: number;
}

/** What the batch step daemon leaves behind: the script's wait status. */
export interface BatchResult {
  /** Wait status: exit code << 8, or the signal number; SIG_OOM (253) after an oom kill. */
  status: number;
  /** The cause, when the controller asked the job to end. */
  cause: KillRequest['cause'] | null;
  /** The daemon could not start the script (output file, exec failure): why. */
  failure: string | null;
}

/** The files of one job in the state directory. */
export function jobDirFiles(stateDir: string, jobId: number) {
  const dir = path.join(stateDir, 'jobs', String(jobId));
  return {
    dir,
    script: path.join(dir, 'script'),
    spec: path.join(dir, 'spec.json'),
    kill: path.join(dir, 'kill.json'),
    signal: path.join(dir, 'signal.json'),
    result: path.join(dir, 'result.json'),
    log: path.join(dir, 'stepd.log'),
  };
}

// jobcomp/script: runs the program JobCompLoc names once per finished job, with the job in its
// environment, as Slurm 22.05's src/plugins/jobcomp/script does: no arguments but its own
// path, stdin, stdout and stderr on /dev/null, in /tmp, with only these variables (in this
// order): JOBID EXITCODE DERIVED_EC ARRAYJOBID ARRAYTASKID [HETJOBID HETJOBOFFSET, with the
// older PACKJOBID PACKJOBOFFSET] UID GID START END SUBMIT PROCS NODECNT DB_FLAGS BATCH CLUSTER
// CONSTRAINTS NODES ACCOUNT JOBNAME JOBSTATE PARTITION QOS DEPENDENCY WORK_DIR RESERVATION
// USERNAME GROUPNAME STATEREASONPREV [STDIN STDOUT STDERR] LIMIT [TZ] PATH. The jobs are
// queued and run one at a time, in order, so the controller never waits for a script; a
// script that exits non-zero is logged. `fini` waits for the queue (Slurm joins its agent).
import { accessSync, constants, statSync } from 'node:fs';
import { SLURM_ERROR, SLURM_SUCCESS, SLURM_VERSION_NUMBER, startProgram, type jobcomp_record_t, type PluginHost, type PluginLog, type Rc } from '../src/plugin-api/index.js';
import { exitCodeText, minutesText } from './lib/jobcomp-format.js';

export const plugin_name = 'Job completion logging script plugin';
export const plugin_type = 'jobcomp/script';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

/** glibc's _PATH_STDPATH, the PATH Slurm gives the script. */
const STD_PATH = '/usr/bin:/bin:/usr/sbin:/sbin';

let log: PluginLog | undefined;
let script: string | undefined;
let queue: Promise<void> = Promise.resolve();

export function init(host: PluginHost): Rc {
  log = host.log;
  log.verbose('jobcomp/script plugin loaded init');
  return SLURM_SUCCESS;
}

export async function fini(): Promise<Rc> {
  await queue;
  script = undefined;
  return SLURM_SUCCESS;
}

export function jobcomp_p_set_location(location: string | null): Rc {
  if (location === null) return fail('jobcomp/script JobCompLoc needs to be set');
  try {
    if (!statSync(location).isFile()) return fail(`jobcomp/script: ${location} isn't a regular file`);
  } catch (error) {
    return fail(`jobcomp/script: failed to stat ${location}: ${(error as Error).message}`);
  }
  try {
    accessSync(location, constants.X_OK);
  } catch {
    return fail(`jobcomp/script: ${location} is not executable`);
  }
  script = location;
  return SLURM_SUCCESS;
}

export function jobcomp_p_log_record(job: jobcomp_record_t): Rc {
  const program = script;
  if (program === undefined) return fail('jobcomp/script: no script to run (JobCompLoc was not accepted)');
  const env = environment(job);
  queue = queue.then(() => run(program, env));
  return SLURM_SUCCESS;
}

async function run(program: string, env: Record<string, string>): Promise<void> {
  const end = await startProgram([program], { cwd: '/tmp', env, stdio: 'ignore' }).ended;
  if (end.kind === 'exec-failed') log?.error(`jobcomp/script: execve(${program}): ${end.message}`);
  else if (end.kind === 'exited' && end.code !== 0) log?.error(`jobcomp/script: script ${program} exited with status ${end.code}`);
}

/** The script's environment, in the order Slurm's _create_environment builds it. */
export function environment(job: jobcomp_record_t): Record<string, string> {
  const env: Record<string, string> = {
    JOBID: String(job.job_id),
    EXITCODE: exitCodeText(job.exit_code),
    DERIVED_EC: exitCodeText(job.derived_ec),
    ARRAYJOBID: String(job.array_job_id),
    ARRAYTASKID: String(job.array_task_id),
  };
  if (job.het_job_id !== 0) {
    Object.assign(env, { PACKJOBID: String(job.het_job_id), PACKJOBOFFSET: String(job.het_job_offset), HETJOBID: String(job.het_job_id), HETJOBOFFSET: String(job.het_job_offset) });
  }
  Object.assign(env, {
    UID: String(job.user_id),
    GID: String(job.group_id),
    START: String(job.start_time),
    END: String(job.end_time),
    SUBMIT: String(job.submit_time),
    PROCS: String(job.total_cpus),
    NODECNT: String(job.node_cnt),
    DB_FLAGS: 'None',
    BATCH: job.batch_flag ? 'yes' : 'no',
    CLUSTER: job.cluster,
    CONSTRAINTS: job.features,
    NODES: job.nodes,
    ACCOUNT: job.account,
    JOBNAME: job.name,
    JOBSTATE: job.job_state,
    PARTITION: job.partition,
    QOS: job.qos,
    DEPENDENCY: job.dependency,
    WORK_DIR: job.work_dir,
    RESERVATION: job.resv_name,
    USERNAME: job.user_name,
    GROUPNAME: job.group_name,
    STATEREASONPREV: job.state_reason_prev,
  });
  if (job.std_in !== '') env.STDIN = job.std_in;
  if (job.std_out !== '') env.STDOUT = job.std_out;
  if (job.std_err !== '') env.STDERR = job.std_err;
  env.LIMIT = minutesText(job.time_limit);
  if (process.env.TZ !== undefined) env.TZ = process.env.TZ;
  env.PATH = STD_PATH;
  return env;
}

function fail(message: string): Rc {
  log?.error(message);
  return SLURM_ERROR;
}

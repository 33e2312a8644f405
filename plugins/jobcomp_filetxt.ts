// jobcomp/filetxt: one line per finished job appended to the file JobCompLoc names (default
// /var/log/slurm_jobcomp.log), in the layout of Slurm 22.05's src/plugins/jobcomp/filetxt:
//   JobId=7 UserId=alice(1000) GroupId=alice(1000) Name=job JobState=COMPLETED Partition=debug
//   TimeLimit=UNLIMITED StartTime=2026-...T... EndTime=... NodeList=node1 NodeCnt=1 ProcCnt=1
//   WorkDir=/home/alice ReservationName= Tres=cpu=1,mem=0M,node=1,billing=1 Account= QOS=
//   WcKey= Cluster=demo SubmitTime=... EligibleTime=...[ ArrayJobId=7 ArrayTaskId=3]
//   DerivedExitCode=0:0 ExitCode=0:0 (one line, ending in a space, then the newline).
// The file is opened once (append, mode 0644) and each record written with one write, so
// lines of several controllers' jobs never interleave. A file that cannot be opened is
// jobcomp_p_set_location's failure (Slurm's slurmctld then stops; tslurm's logs it and goes
// on, without records); records before a good location are refused with Slurm's message.
import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import { SLURM_ERROR, SLURM_SUCCESS, SLURM_VERSION_NUMBER, type jobcomp_record_t, type PluginHost, type PluginLog, type Rc } from '../src/plugin-api/index.js';
import { exitCodeText, INFINITE, isoLocal } from './lib/jobcomp-format.js';

export const plugin_name = 'Job completion text file logging plugin';
export const plugin_type = 'jobcomp/filetxt';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

const DEFAULT_LOCATION = '/var/log/slurm_jobcomp.log';

let log: PluginLog | undefined;
let logName: string | undefined;
let fd = -1;

export function init(host: PluginHost): Rc {
  log = host.log;
  return SLURM_SUCCESS;
}

export function fini(): Rc {
  if (fd >= 0) closeSync(fd);
  fd = -1;
  return SLURM_SUCCESS;
}

export function jobcomp_p_set_location(location: string | null): Rc {
  if (fd >= 0) closeSync(fd);
  fd = -1;
  logName = location ?? DEFAULT_LOCATION;
  try {
    fd = openSync(logName, 'a', 0o644);
    fchmodSync(fd, 0o644);
    return SLURM_SUCCESS;
  } catch (error) {
    log?.error(`open ${logName}: ${(error as Error).message}`);
    return SLURM_ERROR;
  }
}

export function jobcomp_p_log_record(job: jobcomp_record_t): Rc {
  if (fd < 0) {
    log?.error(`JobCompLoc log file ${logName ?? '(null)'} not open`);
    return SLURM_ERROR;
  }
  try {
    const bytes = Buffer.from(recordLine(job));
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    return SLURM_SUCCESS;
  } catch (error) {
    log?.error(`${logName}: ${(error as Error).message}`);
    return SLURM_ERROR;
  }
}

/** The line of one job, as JOB_FORMAT in Slurm's jobcomp_filetxt.c lays it out. */
export function recordLine(job: jobcomp_record_t): string {
  const limit = job.time_limit === INFINITE ? 'UNLIMITED' : String(job.time_limit);
  const array = job.array_task_id !== 0xfffffffe ? ` ArrayJobId=${job.array_job_id} ArrayTaskId=${job.array_task_id}` : '';
  const het = job.het_job_id !== 0 ? ` HetJobId=${job.het_job_id} HetJobOffset=${job.het_job_offset}` : '';
  return (
    `JobId=${job.job_id} UserId=${job.user_name}(${job.user_id}) GroupId=${job.group_name}(${job.group_id}) ` +
    `Name=${job.name} JobState=${job.job_state} Partition=${job.partition} TimeLimit=${limit} ` +
    `StartTime=${isoLocal(job.start_time)} EndTime=${isoLocal(job.end_time)} NodeList=${job.nodes} ` +
    `NodeCnt=${job.node_cnt} ProcCnt=${job.total_cpus} WorkDir=${job.work_dir} ReservationName=${job.resv_name} ` +
    `Tres=${job.tres_req} Account=${job.account} QOS=${job.qos} WcKey=${job.wckey} Cluster=${job.cluster} ` +
    `SubmitTime=${job.submit_time ? isoLocal(job.submit_time) : 'unknown'} ` +
    `EligibleTime=${job.eligible_time ? isoLocal(job.eligible_time) : 'unknown'}${array}${het} ` +
    `DerivedExitCode=${exitCodeText(job.derived_ec)} ExitCode=${exitCodeText(job.exit_code)} \n`
  );
}

// scancel's work: check the arguments with its messages, load the jobs when filters choose
// them, then one cancel (or signal) request per job, reported per job as scancel does.
import { constants } from 'node:os';
import { UserError } from '../../core/errors.js';
import { errnoValue, isErrnoName } from '../../core/errno.js';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { jobStateFromName } from '../../core/job-state.js';
import { uidForName } from '../../os/users.js';
import { expandHostlist } from '../../core/hostlist.js';
import { loadCluster } from '../../config/load.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { connectController, type CtldClient } from '../../client/ctld-client.js';
import { noLocalController } from '../../client/controller-absent.js';
import { JOB_PENDING, JOB_RUNNING, JOB_SUSPENDED, JOB_STATE_BASE } from '../../plugin-api/records.js';
import type { JobView } from '../../protocol/job-view.js';
import type { ClusterConfig } from '../../config/types.js';
import type { TscancelOptions } from './options.js';

interface CancelResult {
  results: Array<{ id: string; error?: { message: string; code?: string } }>;
}

export async function cancelJobs(ids: string[], options: TscancelOptions, bin: string): Promise<number> {
  const log = createLogger(bin, levelFromVerbosity(options.verbose, options.quiet));
  for (const id of ids) {
    if (!/^\d+(_(\d+|\[[\d,\-]+\]))?(\.\d+)?$/.test(id)) throw new UserError(`Invalid job id ${id}`);
  }
  const signal = options.signal === undefined ? undefined : signalNumber(options.signal);
  const filters = readFilters(options);
  if (ids.length === 0 && !filters.any) throw new UserError('No job identification provided');

  const config = await loadCluster({ file: options.cluster });
  let client: CtldClient;
  try {
    client = await connectController({ config, stateDir: resolveStateDir(config), clusterFile: undefined, autostart: false });
  } catch (error) {
    if (!noLocalController(config, error)) throw cannotCancel(ids, error);
    // No controller on the state directory: no job is pending or running, so every id is unknown to it.
    for (const id of ids.filter((t) => !t.includes('.'))) reportInvalid(log, options.verbose, id);
    for (const id of ids.filter((t) => t.includes('.'))) log.error(`Kill job error on job step id ${id}: Invalid job id specified`);
    return ids.some((t) => t.includes('.')) ? 1 : 0;
  }
  try {
    let targets = expandArrayRanges(ids);
    if (filters.any) {
      // A refused listing is an error: taken for an empty one, nothing would be cancelled, silently.
      const views = await client
        .call<JobView[]>('jobs', ids.length > 0 ? { ids: targets.filter((t) => !t.includes('.')) } : {})
        .catch((error: unknown) => Promise.reject(cannotCancel(ids, error)));
      targets = views.filter((view) => filters.match(view)).map((view) => displayId(view));
    }
    let status = 0;
    const stepIds = targets.filter((t) => t.includes('.'));
    if (stepIds.length > 0) {
      const steps = await client
        .call<CancelResult>('step-cancel', { ids: stepIds, userId: process.getuid?.() ?? 0, signal })
        .catch((error: unknown) => Promise.reject(cannotCancel(stepIds, error)));
      for (const result of steps.results) {
        if (!result.error) continue;
        // Unlike a job id, an unknown step is always reported, with exit 1 (observed on Slurm 22.05).
        log.error(`Kill job error on job step id ${result.id}: ${result.error.message}`);
        status = 1;
      }
    }
    const jobIds = targets.filter((t) => !t.includes('.'));
    if (jobIds.length === 0) return status;
    // scancel's -f wins over -b; without either a signal reaches the job's steps only.
    const scope = options.full ? 'full' : options.batch ? 'batch' : 'steps';
    // scancel -v names the scope: "Terminating batch job 5", "Signal 10 to full job 5".
    const which = scope === 'steps' ? '' : `${scope} `;
    for (const id of jobIds) log.verbose(signal === undefined ? `Terminating ${which}job ${id}` : `Signal ${signal} to ${which}job ${id}`);
    const answer = await cancelRetryingTransitions(client, { ids: jobIds, userId: process.getuid?.() ?? 0, signal, scope }, log);
    for (const result of answer) {
      if (!result.error) continue;
      if (result.error.code === 'ESLURM_INVALID_JOB_ID') {
        reportInvalid(log, options.verbose, result.id);
      } else if (result.error.code === 'ESLURM_ALREADY_DONE') {
        // scancel says so, and still exits 0 (observed on Slurm 22.05).
        log.error(`Kill job error on job id ${result.id}: ${result.error.message}`);
      } else {
        log.error(`Kill job error on job id ${result.id}: ${result.error.message}`);
        status = Math.max(status, exitStatusFor(result.error.code));
      }
    }
    return status;
  } finally {
    client.close();
  }
}

// scancel asks again, up to ten times, for a job "in transitional state" (refused with 2020 or
// ESLURM_JOB_PENDING), waiting 5 s, then 6 s, ... (about 95 s in all: observed on Slurm 22.05,
// /work/ref/signal-pending.txt); the job may have started by then. TSLURM_CANCEL_RETRY_WAIT
// sets the first wait (the later ones grow in proportion), for tests and impatient scripts.
const MAX_CANCEL_RETRY = 10;
const TRANSITIONAL = new Set(['ESLURM_TRANSITION_STATE_NO_UPDATE', 'ESLURM_JOB_PENDING']);

async function cancelRetryingTransitions(
  client: CtldClient,
  request: { ids: string[]; userId: number; signal: number | undefined; scope: 'steps' | 'batch' | 'full' },
  log: ReturnType<typeof createLogger>,
): Promise<CancelResult['results']> {
  const call = (ids: string[]) =>
    client.call<CancelResult>('cancel', { ...request, ids }).catch((error: unknown) => Promise.reject(cannotCancel(ids, error)));
  const final = new Map((await call(request.ids)).results.map((result) => [result.id, result]));
  const firstWait = retryWaitSeconds();
  for (let attempt = 0; attempt < MAX_CANCEL_RETRY; attempt++) {
    const again = [...final.values()].filter((result) => TRANSITIONAL.has(result.error?.code ?? '')).map((result) => result.id);
    if (again.length === 0) break;
    log.verbose('Job is in transitional state, retrying');
    await new Promise((resolve) => setTimeout(resolve, ((firstWait * (5 + attempt)) / 5) * 1000));
    for (const result of (await call(again)).results) final.set(result.id, result);
  }
  return [...final.values()];
}

function retryWaitSeconds(): number {
  const text = process.env.TSLURM_CANCEL_RETRY_WAIT;
  const value = text === undefined || text === '' ? NaN : Number(text);
  return Number.isFinite(value) && value >= 0 ? value : 5;
}

// scancel exits with the Slurm errno of a refusal, cut to a byte as exit() cuts it (observed on
// Slurm 22.05: 228 for 2020, 210 for 2002 "Access/permission denied").
function exitStatusFor(code: string | undefined): number {
  const value = code !== undefined && isErrnoName(code) ? errnoValue(code) & 0xff : 0;
  return value === 0 ? 1 : value;
}

// One line, as scancel prints when it cannot reach the controller ("Kill job error on job id 5:
// Unable to contact slurm controller (connect failure)", observed on Slurm 22.05); the job is
// named when there is one, so the user knows it was not cancelled.
function cannotCancel(ids: readonly string[], error: unknown): unknown {
  // Anything but a UserError is a bug, and stays one.
  if (!(error instanceof UserError) || ids.length !== 1) return error;
  const what = ids[0]!.includes('.') ? 'job step id' : 'job id';
  return new UserError(`Kill job error on ${what} ${ids[0]}: ${error.message}`, { cause: error, code: error.code, exitCode: error.exitCode });
}

// scancel on a job id the controller does not know says nothing and exits 0 unless -v is
// given (observed on Slurm 22.05: `scancel 999` is silent; `scancel -v 999` reports it).
function reportInvalid(log: ReturnType<typeof createLogger>, verbose: number, id: string): void {
  if (verbose > 0) log.error(`Kill job error on job id ${id}: Invalid job id specified`);
}

/** `12_[1-3]` → `12_1 12_2 12_3`; other ids as given. */
function expandArrayRanges(ids: readonly string[]): string[] {
  return ids.flatMap((id) => {
    const match = /^(\d+)_\[([\d,\-]+)\]$/.exec(id);
    if (!match) return [id];
    return expandHostlist(`x[${match[2]}]`).map((name) => `${match[1]}_${name.slice(1)}`);
  });
}

function displayId(view: JobView): string {
  return view.arrayJobId !== 0 ? `${view.arrayJobId}_${view.arrayTaskId}` : String(view.jobId);
}

function signalNumber(text: string): number {
  const trimmed = text.trim().toUpperCase();
  if (/^\d+$/.test(trimmed) && Number(trimmed) > 0 && Number(trimmed) < 65) return Number(trimmed);
  const name = trimmed.startsWith('SIG') ? trimmed : `SIG${trimmed}`;
  const value = (constants.signals as Record<string, number>)[name];
  // scancel prints this one without its "scancel: error:" prefix (observed on Slurm 22.05).
  if (value === undefined) throw new UserError(`Unknown job signal: ${text}`, { bare: true });
  return value;
}

interface Filters {
  any: boolean;
  match(view: JobView): boolean;
}

function readFilters(options: TscancelOptions): Filters {
  const checks: Array<(view: JobView) => boolean> = [];
  if (options.user !== undefined) {
    const uid = uidForName(options.user);
    if (uid === undefined) throw new UserError(`Invalid user name: ${options.user}`);
    checks.push((view) => view.userId === uid);
  }
  if (options.name !== undefined) checks.push((view) => view.name === options.name);
  if (options.partition !== undefined) checks.push((view) => view.partition === options.partition);
  if (options.state !== undefined) {
    const state = jobStateFromName(options.state);
    if (state !== JOB_PENDING && state !== JOB_RUNNING && state !== JOB_SUSPENDED) {
      throw new UserError(`Invalid job state specified: ${options.state}\nValid job states are PENDING, RUNNING, and SUSPENDED`, { bare: true });
    }
    checks.push((view) => (view.state & JOB_STATE_BASE) === state);
  }
  if (options.nodelist !== undefined) {
    const wanted = new Set(expandHostlist(options.nodelist));
    checks.push((view) => view.nodes !== null && expandHostlist(view.nodes).some((n) => wanted.has(n)));
  }
  // Filters alone never reach finished jobs: scancel acts on pending, running, suspended.
  const live = (view: JobView): boolean => [JOB_PENDING, JOB_RUNNING, JOB_SUSPENDED].includes(view.state & JOB_STATE_BASE);
  return { any: checks.length > 0, match: (view) => live(view) && checks.every((check) => check(view)) };
}

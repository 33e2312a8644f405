// tscontrol's job commands: `show job [ID]`, `hold`, `release` — answered by the controller.
// With no controller running there are no jobs to show (scontrol says so its own way).
import { UserError } from '../../core/errors.js';
import { loadCluster } from '../../config/load.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { connectController, type CtldClient } from '../../client/ctld-client.js';
import { cannotLoad, noLocalController } from '../../client/controller-absent.js';
import { renderKvRecord } from '../../cli/format/kv-record.js';
import { jobRecordLines } from '../../cli/format/scontrol-job.js';
import type { JobView } from '../../protocol/job-view.js';

// No controller on the state directory: undefined (no jobs); one that cannot be reached: scontrol's line.
async function connect(cluster: string | undefined): Promise<CtldClient | undefined> {
  const config = await loadCluster({ file: cluster });
  try {
    return await connectController({ config, stateDir: resolveStateDir(config), clusterFile: undefined, autostart: false });
  } catch (error) {
    if (noLocalController(config, error)) return undefined;
    throw cannotLoad('slurm_load_jobs error:', error);
  }
}

export interface ShowJobOptions {
  cluster?: string;
  /** --json / --yaml: Slurm's data_parser document. */
  data: 'json' | 'yaml' | undefined;
  oneliner: boolean;
  /** -d count. */
  details: number;
}

export async function showJobs(ids: string[], options: ShowJobOptions): Promise<number> {
  const client = await connect(options.cluster);
  let views: JobView[] = [];
  try {
    const details = options.details > 0 ? { details: true } : {};
    if (client) views = await client.call<JobView[]>('jobs', ids.length > 0 ? { ids, ...details } : details);
    else if (ids.length > 0) throw UserError.fromErrno('ESLURM_INVALID_JOB_ID');
  } catch (error) {
    // scontrol: "slurm_load_jobs error: Invalid job id specified", exit 1.
    if (error instanceof UserError) throw new UserError(`slurm_load_jobs error: ${error.message}`, { bare: true });
    throw error;
  } finally {
    client?.close();
  }
  if (options.data) {
    // Slurm's data_parser document, as tsqueue --json prints it.
    const { dataParserDocument, dataParserText } = await import('../../cli/format/data-parser.js');
    const { jobToData } = await import('../../cli/format/job-data.js');
    const { buildRecords } = await import('../../cli/format/squeue-records.js');
    const { clusterName } = await loadCluster({ file: options.cluster });
    const doc = dataParserDocument({ jobs: buildRecords(views).map((rec) => jobToData(rec, clusterName)) });
    process.stdout.write(await dataParserText(doc, options.data === 'yaml'));
    return 0;
  }
  if (views.length === 0) {
    process.stdout.write('No jobs in the system\n');
    return 0;
  }
  const now = Math.floor(Date.now() / 1000);
  process.stdout.write(views.map((view) => renderKvRecord(jobRecordLines(view, now, options.details), options.oneliner)).join(''));
  return 0;
}

export async function changeJobs(op: 'hold' | 'release' | 'uhold', ids: string[], cluster: string | undefined): Promise<number> {
  if (ids.length === 0) throw new UserError('Invalid job id specified');
  const client = await connect(cluster);
  if (!client) throw UserError.fromErrno('ESLURM_INVALID_JOB_ID');
  try {
    const userId = process.getuid?.() ?? 0;
    // scontrol hold by root is an administrator's hold; uhold is always the user's.
    if (op === 'release') await client.call('release', { ids, userId });
    else await client.call('hold', { ids, userId, admin: op === 'hold' });
    return 0;
  } finally {
    client.close();
  }
}

// What sbcast does, with its messages and exit codes (observed on Slurm 22.05): find the job
// (SLURM_JOB_ID or -j) and its nodes through the controller, read SOURCE, and have DEST
// written on each node (bcast-node.ts). Emulated nodes share this host and the job's container,
// so one write serves every node here; its failure is reported for each of them, as sbcast
// reports one line per node.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { UserError } from '../../core/errors.js';
import { expandHostlist } from '../../core/hostlist.js';
import { slurm_strerror } from '../../core/errno.js';
import { JOB_RUNNING, JOB_PENDING, JOB_STATE_BASE, JOB_SUSPENDED } from '../../plugin-api/records.js';
import { loadCluster } from '../../config/load.js';
import { createPluginRegistry } from '../../plugin-host/create.js';
import { JobContainerFacade } from '../../interfaces/job-container.js';
import { writeBcastFile, type BcastNodeRequest } from '../../stepd/bcast-node.js';
import type { JobView } from '../../protocol/job-view.js';
import { openController } from '../tscontrol/controller-call.js';
import type { TsbcastOptions } from './options.js';
import { constants } from 'node:os';
import type { ClusterConfig } from '../../config/types.js';
import { CtldClient } from '../../client/ctld-client.js';
import { remoteController } from '../../client/controller-target.js';
import type { NodeAddress } from '../../protocol/node-messages.js';
import { clientLimits } from '../../net/input-limits.js';
import { printError } from '../../cli/error-line.js';

export async function broadcast(source: string, destArg: string, options: TsbcastOptions, bin: string): Promise<number> {
  const jobText = options.jobid ?? process.env.SLURM_JOB_ID ?? process.env.SLURM_JOBID;
  if (jobText === undefined || jobText === '') {
    throw new UserError('Need a job id to run this command.  Run from within a Slurm job or use the --jobid option.');
  }
  // "12", "12.0", "12+0": the job is the leading number; anything else is job 0, as sbcast reads it.
  const jobId = Number.parseInt(/^\d+/.exec(jobText)?.[0] ?? '0', 10);
  if (destArg.endsWith('/')) throw new UserError('Target filename cannot be a directory.');
  const job = await lookUpJob(jobId, options.cluster);
  const nodes = expandHostlist(job.nodes ?? '');
  const file = readSource(source);
  const request: BcastNodeRequest = {
    jobId,
    nodeName: nodes[0]!,
    dest: path.resolve(destArg),
    data: file.data,
    mode: file.mode,
    force: options.force === true,
    times: options.preserve ? { atime: file.atime, mtime: file.mtime } : null,
  };
  const config = await loadCluster({ file: options.cluster });
  const results = config.control.host !== undefined ? await writeOnDaemons(request, nodes, config) : await writeHere(request, nodes, config, options, bin);
  const failed = results.filter((r) => r.errno !== 0);
  for (const { node, errno } of failed) printError(bin, `REQUEST_FILE_BCAST(${node}): ${slurm_strerror(errno)}`);
  // sbcast exits with the nodes' errno (17 for an existing file, 2 for a missing directory).
  return failed[0]?.errno ?? 0;
}

interface NodeResult {
  node: string;
  errno: number;
}

/** Emulated nodes share this host and the job's container: one write serves them all. */
async function writeHere(request: BcastNodeRequest, nodes: string[], config: ClusterConfig, options: TsbcastOptions, bin: string): Promise<NodeResult[]> {
  const errno = await writeOnThisHost(request, config, options, bin);
  return nodes.map((node) => ({ node, errno }));
}

/** Each node's tsstepd writes its copy (in its job container), all at once. */
async function writeOnDaemons(request: BcastNodeRequest, nodes: string[], config: ClusterConfig): Promise<NodeResult[]> {
  const remote = (await remoteController(config))!;
  const ctld = await CtldClient.open(remote);
  let addresses: Array<NodeAddress | null>;
  try {
    addresses = await ctld.call<Array<NodeAddress | null>>('node-addresses', { names: nodes });
  } finally {
    ctld.close();
  }
  const body = { ...request, data: request.data.toString('base64') };
  // The whole file travels in one message, which a daemon takes up to its size limit.
  const { maxMessageBytes } = clientLimits();
  if (body.data.length + 64 * 1024 > maxMessageBytes) {
    throw new UserError(`the source file has ${request.data.length} bytes, more than one message to a node daemon may carry (TSLURM_MAX_MESSAGE_SIZE=${maxMessageBytes}, base64-encoded)`, { exitCode: 255 });
  }
  return Promise.all(
    nodes.map(async (node, i): Promise<NodeResult> => {
      const address = addresses[i];
      if (!address) return { node, errno: constants.errno.EHOSTUNREACH };
      try {
        const daemon = await CtldClient.connect({ host: address.host, port: address.port }, remote.auth);
        try {
          // A ping first: the daemon takes a connection's first message only up to 16 MiB
          // (TSLURM_MAX_UNAUTH_MESSAGE_SIZE), the file once this connection has authenticated.
          await daemon.call('ping', {});
          return { node, errno: await daemon.call<number>('bcast', { ...body, nodeName: node }) };
        } finally {
          daemon.close();
        }
      } catch {
        return { node, errno: constants.errno.ECONNREFUSED };
      }
    }),
  );
}

// The job, which must be running: sbcast's "Slurm job N lookup error: ..." and 255 otherwise.
async function lookUpJob(jobId: number, cluster: string | undefined): Promise<JobView> {
  const failure = (code: 'ESLURM_INVALID_JOB_ID' | 'ESLURM_JOB_PENDING' | 'ESLURM_ALREADY_DONE') =>
    UserError.fromErrno(code, `Slurm job ${jobId} lookup error`, 255);
  const client = jobId > 0 ? await openController(cluster, false) : undefined;
  if (!client) throw failure('ESLURM_INVALID_JOB_ID');
  let job: JobView | undefined;
  try {
    job = (await client.call<JobView[]>('jobs', { ids: [String(jobId)] })).find((view) => view.jobId === jobId);
  } catch (error) {
    if (error instanceof UserError) throw failure('ESLURM_INVALID_JOB_ID');
    throw error;
  } finally {
    client.close();
  }
  if (!job) throw failure('ESLURM_INVALID_JOB_ID');
  const base = job.state & JOB_STATE_BASE;
  if (base === JOB_PENDING) throw failure('ESLURM_JOB_PENDING');
  if ((base !== JOB_RUNNING && base !== JOB_SUSPENDED) || !job.nodes) throw failure('ESLURM_ALREADY_DONE');
  return job;
}

interface SourceFile {
  data: Buffer;
  mode: number;
  atime: number;
  mtime: number;
}

// sbcast opens and mmaps the source: its two messages, exit 255.
function readSource(source: string): SourceFile {
  let stat;
  try {
    stat = statSync(source);
    if (stat.isDirectory()) throw new UserError(`Can't mmap file \`${source}\`, No such device.`, { exitCode: 255 });
    return { data: readFileSync(source), mode: stat.mode, atime: Math.floor(stat.atimeMs / 1000), mtime: Math.floor(stat.mtimeMs / 1000) };
  } catch (error) {
    if (error instanceof UserError) throw error;
    const code = (error as NodeJS.ErrnoException).errno;
    throw new UserError(`Can't open \`${source}\`: ${code === undefined ? (error as Error).message : slurm_strerror(-code)}`, { exitCode: 255 });
  }
}

// The job's container plugin, from the cluster file, for the node-side write.
async function writeOnThisHost(request: BcastNodeRequest, config: ClusterConfig, options: TsbcastOptions, bin: string): Promise<number> {
  const registry = createPluginRegistry(config, createLogger(bin, levelFromVerbosity(options.verbose)));
  try {
    const container = new JobContainerFacade(await registry.get('job_container', config.plugins.jobContainer), registry.timeoutMs);
    return await writeBcastFile(request, container);
  } finally {
    await registry.finiAll();
  }
}

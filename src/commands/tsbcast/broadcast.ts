// What sbcast does, with its messages and exit codes (observed on Slurm 22.05): find the job
// (SLURM_JOB_ID or -j) and its nodes through the controller, read SOURCE, and have DEST
// written on each node (bcast-node.ts) by the step host that runs the job's tasks there: a
// node's tsstepd daemon, or for emulated nodes the state directory's embedded step host,
// where they share the job's container, so one write serves them all; its failure is
// reported for each of them, as sbcast reports one line per node.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { expandHostlist } from '../../core/hostlist.js';
import { slurm_strerror } from '../../core/errno.js';
import { JOB_RUNNING, JOB_PENDING, JOB_STATE_BASE, JOB_SUSPENDED } from '../../plugin-api/records.js';
import { loadCluster } from '../../config/load.js';
import type { BcastNodeRequest } from '../../stepd/bcast-node.js';
import { connectStepHost } from '../../client/start-step-host.js';
import { resolveStateDir } from '../../config/state-dir.js';
import type { JobView } from '../../protocol/job-view.js';
import { openController } from '../tscontrol/controller-call.js';
import type { TsbcastOptions } from './options.js';
import { constants } from 'node:os';
import type { ClusterConfig } from '../../config/types.js';
import { CtldClient } from '../../client/ctld-client.js';
import { remoteController } from '../../client/controller-target.js';
import type { NodeAddress } from '../../protocol/node-messages.js';
import type { MessageAuth } from '../../net/message-auth.js';
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
  checkSize(request);
  const results = config.control.host !== undefined ? await writeOnDaemons(request, nodes, config) : await writeOnStepHost(request, nodes, config);
  const failed = results.filter((r) => r.errno !== 0);
  for (const { node, errno } of failed) printError(bin, `REQUEST_FILE_BCAST(${node}): ${slurm_strerror(errno)}`);
  // sbcast exits with the nodes' errno (17 for an existing file, 2 for a missing directory).
  return failed[0]?.errno ?? 0;
}

interface NodeResult {
  node: string;
  errno: number;
}

/**
 * The emulated nodes' copy: written by the state directory's step host, which runs their
 * tasks in the job's container (the one container their tasks share), so one write serves
 * every emulated node of the job, as slurmd's would serve its own node.
 */
async function writeOnStepHost(request: BcastNodeRequest, nodes: string[], config: ClusterConfig): Promise<NodeResult[]> {
  if (nodes.length === 0) return [];
  const plugins = { clusterName: config.clusterName, plugins: config.plugins, options: config.options };
  let errno: number;
  try {
    const host = await connectStepHost(resolveStateDir(config), config.source.startsWith('/') ? config.source : undefined);
    try {
      // A ping first, as to a daemon: a connection's first message is taken only up to 16 MiB.
      await host.call('ping', {});
      errno = await host.call<number>('bcast', { ...encoded(request), nodeName: nodes[0]!, plugins });
    } finally {
      host.close();
    }
  } catch {
    errno = constants.errno.ECONNREFUSED;
  }
  return nodes.map((node) => ({ node, errno }));
}

/** The whole file travels in one message, which a step host takes up to its size limit. */
function checkSize(request: BcastNodeRequest): void {
  const { maxMessageBytes } = clientLimits();
  if (Math.ceil(request.data.length / 3) * 4 + 64 * 1024 > maxMessageBytes) {
    throw new UserError(`the source file has ${request.data.length} bytes, more than one message to a node daemon may carry (TSLURM_MAX_MESSAGE_SIZE=${maxMessageBytes}, base64-encoded)`, { exitCode: 255 });
  }
}

function encoded(request: BcastNodeRequest) {
  return { ...request, data: request.data.toString('base64') };
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
  const body = encoded(request);
  // Nodes without a daemon are emulated on this host's step host.
  const emulated = nodes.filter((_, i) => !addresses[i]);
  const served = nodes.flatMap((node, i) => (addresses[i] ? [{ node, address: addresses[i]! }] : []));
  const [here, there] = await Promise.all([
    writeOnStepHost(request, emulated, config),
    Promise.all(served.map(({ node, address }) => writeOnDaemon(node, address, body, remote.auth))),
  ]);
  // One line per node, in the job's node order, as sbcast prints them.
  const byNode = new Map([...here, ...there].map((result) => [result.node, result]));
  return nodes.map((node) => byNode.get(node)!);
}

async function writeOnDaemon(node: string, address: NodeAddress, body: ReturnType<typeof encoded>, auth: MessageAuth): Promise<NodeResult> {
  try {
    const daemon = await CtldClient.connect({ host: address.host, port: address.port }, auth);
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

// `tscontrol update NodeName=... State=... Reason=...` and `update JobId=... TimeLimit=...`:
// scontrol's Key=Value words, checked as scontrol checks them, then sent to the controller.
// Messages are scontrol 22.05's, verbatim and without a prefix where scontrol prints none
// (observed: "slurm_update error: Invalid node name specified", exit 1).
import { UserError } from '../../core/errors.js';
import { INFINITE } from '../../core/slurm-constants.js';
import { parseTimeToMinutes } from '../../core/time-string.js';
import type { JobUpdate, TimeLimitChange } from '../../protocol/ctld-messages.js';
import type { ResizedAllocation } from '../../protocol/ctld-answers.js';
import { callController } from './controller-call.js';
import { pairOf, type Pair } from './update-pairs.js';

const NO_ENTITY = [
  'No valid entity in update command',
  'Input line must include "NodeName", "PartitionName", "Reservation", "JobId", or "SlurmctldDebug"',
];

// scontrol's list after a State= it cannot read (update_node.c), verbatim.
const BAD_STATE = (value: string): string[] => [
  `Invalid input: State=${value}`,
  'Request aborted',
  'Valid states are: NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN',
  'Not all states are valid given a node\'s prior state',
];

// What scontrol reads as a node state: its keywords, and the base state names (3 letters at least).
const NODE_STATE_WORDS = ['NORESP', 'DRAIN', 'FAIL', 'FUTURE', 'RESUME', 'POWER_DOWN', 'POWER_UP', 'UNDRAIN', 'CANCEL_REBOOT'];
const BASE_STATES = ['UNKNOWN', 'DOWN', 'IDLE', 'ALLOCATED', 'ERROR', 'MIXED', 'FUTURE'];

export async function update(words: readonly string[], cluster: string | undefined, bin = 'tscontrol'): Promise<number> {
  if (words.length === 0) throw new UserError('too few arguments for update keyword');
  const pairs = words.map(pairOf);
  const entity = pairs.find((p) => ['nodename', 'jobid', 'partitionname', 'reservation', 'reservationname'].includes(p.key));
  if (entity === undefined) throw bare(NO_ENTITY);
  if (entity.key === 'nodename') return updateNode(pairs, cluster);
  if (entity.key === 'jobid') return updateJob(pairs, entity.value, cluster);
  if (entity.key === 'partitionname') {
    const { updatePartition } = await import('./update-partition.js');
    return updatePartition(pairs, cluster);
  }
  if (entity.key === 'reservation' || entity.key === 'reservationname') {
    const { updateReservation } = await import('./reservations.js');
    return updateReservation(words, cluster, 'tscontrol');
  }
  throw bare([`slurm_update error: Requested operation not supported on this system`]);
}

async function updateNode(pairs: readonly Pair[], cluster: string | undefined): Promise<number> {
  const body: { nodes: string; state?: string; reason?: string } = { nodes: '' };
  for (const pair of pairs) {
    if (pair.key === 'nodename') body.nodes = pair.value;
    else if (pair.key === 'reason') body.reason = pair.value;
    else if (pair.key === 'state') body.state = nodeStateWord(pair.value);
    else throw unsupported(pair);
  }
  const state = body.state?.toUpperCase();
  if ((state === 'DOWN' || state === 'DRAIN' || state === 'FAIL') && !body.reason) {
    throw bare(['You must specify a reason when DOWNING or DRAINING a node. Request denied']);
  }
  await callController(cluster, ['update_node', body], (message) => `slurm_update error: ${message}`, 'start');
  return 0;
}

async function updateJob(pairs: readonly Pair[], id: string, cluster: string | undefined): Promise<number> {
  const change: JobUpdate = {};
  for (const pair of pairs) {
    if (pair.key === 'jobid') continue;
    if (pair.key === 'timelimit') change.timeLimit = timeLimitOf(pair.value);
    else if (pair.key === 'partition') change.partition = pair.value;
    else if (pair.key === 'name' || pair.key === 'jobname') change.name = pair.value;
    else if (pair.key === 'comment') change.comment = pair.value;
    else if (pair.key === 'dependency') change.dependency = pair.value;
    else if (pair.key === 'numnodes') change.numNodes = nodeCountOf(pair.value);
    else if (pair.key === 'nice') change.nice = niceOf(pair);
    else throw unsupported(pair);
  }
  const answer = await callController<{ resized?: ResizedAllocation[] }>(
    cluster,
    ['update_job', { id, update: change }],
    (message) => `${message} for job ${id}`,
    'ESLURM_INVALID_JOB_ID',
  );
  if (change.numNodes !== undefined && answer.resized?.length === 1) {
    const { writeResizeFiles } = await import('./resize-files.js');
    for (const line of writeResizeFiles(answer.resized[0]!)) process.stdout.write(`${line}\n`);
  }
  return 0;
}

// Nice=N; a bare `Nice` is 100 and a value is read as strtol reads it (observed on 22.05:
// `Nice=abc` sets 0, `Nice=3000000000` is refused with this line, exit 1).
function niceOf(pair: Pair): number {
  if (!pair.word.includes('=')) return 100;
  const n = Number(/^\s*[+-]?\d+/.exec(pair.value)?.[0] ?? 0);
  if (Math.abs(n) > 2147483645) throw new UserError('Nice value out of range (+/- 2147483645). Value ignored');
  return n;
}

// NumNodes=M (scontrol also takes min-max; a running job shrinks to the minimum).
function nodeCountOf(value: string): number {
  const match = /^(\d+)(?:-\d+)?$/.exec(value.trim());
  if (!match) throw new UserError('Invalid node count value');
  return Number(match[1]);
}

// TimeLimit=MIN, =+MIN (more), =-MIN (less), or any of Slurm's time forms.
function timeLimitOf(value: string): TimeLimitChange {
  const op = value.startsWith('+') ? 'add' : value.startsWith('-') && value !== '-1' ? 'sub' : 'set';
  const text = op === 'set' ? value : value.slice(1);
  let minutes: number;
  try {
    minutes = parseTimeToMinutes(text, 'TimeLimit');
  } catch {
    throw new UserError('Invalid TimeLimit value');
  }
  if (op !== 'set' && minutes === INFINITE) throw new UserError('Invalid TimeLimit value');
  return { op, minutes };
}

function nodeStateWord(value: string): string {
  const upper = value.toUpperCase();
  if (NODE_STATE_WORDS.includes(upper)) return upper;
  const base = BASE_STATES.find((name) => upper.length >= 3 && name.startsWith(upper));
  if (base !== undefined) return base;
  throw bare(BAD_STATE(value));
}

function unsupported(pair: Pair): UserError {
  return bare([`Update of this parameter is not supported: ${pair.word}`, 'Request aborted']);
}

function bare(lines: readonly string[]): UserError {
  return new UserError(lines.join('\n'), { bare: true });
}

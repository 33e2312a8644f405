// `tscontrol create|update|delete reservation` and `show reservation [NAME]`: scontrol's
// Key=Value words (create_res.c), checked as scontrol checks them, then answered by the
// controller. Messages are scontrol 22.05's, verbatim, with its own framing: "Error creating
// the reservation: ...", "slurm_update error: ...", "delete_reservation ...: ...".
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UserError, UserErrorReport } from '../../core/errors.js';
import { loadCluster } from '../../config/load.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { resvStateFile } from '../../ctld/state/resv-state.js';
import { parseBeginTime } from '../../core/begin-time.js';
import { INFINITE } from '../../core/slurm-constants.js';
import { parseTimeToMinutes } from '../../core/time-string.js';
import { renderKvRecord } from '../../cli/format/kv-record.js';
import { reservationLines } from '../../cli/format/scontrol-reservation.js';
import type { ReservationRequest, ReservationView, ResvFlag } from '../../protocol/reservation.js';
import { callController, openController } from './controller-call.js';

/** The flags a user may set (the rest tslurm sets itself). */
const SETTABLE: readonly ResvFlag[] = ['MAINT', 'OVERLAP', 'IGNORE_JOBS'];

type Verb = 'create' | 'update';

// scontrol_parse_res_options(): each word is Key=Value (Key+= / Key-= for flags).
function parseWords(words: readonly string[], verb: Verb): ReservationRequest {
  const req: ReservationRequest = {};
  const what = verb === 'create' ? 'No reservation created.' : 'Request aborted.';
  const fail = (message: string, extra: string[] = []): never => {
    throw new UserErrorReport([...extra.map((plain) => ({ plain })), { error: `${message}  ${what}` }]);
  };
  for (const word of words) {
    const match = /^([A-Za-z]+)([+-]?)=(.*)$/.exec(word);
    if (!match) fail(`Unknown parameter ${word}.`);
    const [, rawKey, sign, value] = match!;
    const key = rawKey!.toLowerCase();
    if (key === 'reservationname' || key === 'reservation') req.name = value;
    else if (key === 'starttime') req.start = timeOf(value!, () => fail(`Invalid start time ${word}.`, [timeSpecText(value!)]));
    else if (key === 'endtime') req.end = timeOf(value!, () => fail(`Invalid end time ${word}.`, [timeSpecText(value!)]));
    else if (key === 'duration') req.duration = durationOf(value!) ?? fail(`Invalid duration ${word}.`);
    else if (key === 'nodes' || key === 'nodelist') req.nodes = value;
    else if (key === 'nodecnt' || key === 'nodecount') {
      const n = Number(value);
      if (!Number.isInteger(n) || n <= 0) fail(`Invalid node count ${word}.`);
      req.nodeCnt = n;
    } else if (key === 'partitionname' || key === 'partition') req.partition = value;
    else if (key === 'users' || key === 'user') req.users = value!.split(',').filter(Boolean);
    else if (key === 'accounts' || key === 'account') req.accounts = value!.split(',').filter(Boolean);
    else if (key === 'flags') {
      const flags = flagsOf(value!) ?? fail(`Error parsing flags ${value}.`);
      if (sign === '-') req.clearFlags = flags;
      else req.flags = flags;
    } else fail(`Unknown parameter ${word}.`);
  }
  return req;
}

function timeOf(text: string, bad: () => never): number {
  if (text.toLowerCase() === 'now') return Math.floor(Date.now() / 1000);
  try {
    const t = parseBeginTime(text, new Date());
    return t === 0 ? bad() : t;
  } catch {
    return bad();
  }
}

function timeSpecText(text: string): string {
  try {
    parseBeginTime(text, new Date());
  } catch (error) {
    if (error instanceof UserError) return error.message;
  }
  return `Invalid time specification (pos=0): ${text}`;
}

function durationOf(text: string): number | undefined {
  try {
    const minutes = parseTimeToMinutes(text, 'duration');
    return minutes === INFINITE || minutes > 0 ? minutes : undefined;
  } catch {
    return undefined;
  }
}

function flagsOf(text: string): ResvFlag[] | undefined {
  const flags: ResvFlag[] = [];
  for (const word of text.split(',').filter(Boolean)) {
    const flag = SETTABLE.find((f) => f === word.toUpperCase());
    if (flag === undefined) return undefined;
    flags.push(flag);
  }
  return flags;
}

/** `create reservation K=V...`: scontrol's checks (create_res.c's order), then the controller. */
export async function createReservation(words: readonly string[], cluster: string | undefined, bin: string): Promise<number> {
  const req = parseWords(words, 'create');
  const fail = (message: string): never => {
    throw new UserError(`${message}  No reservation created.`);
  };
  if (req.start === undefined) fail('A start time must be given.');
  if (req.end === undefined && req.duration === undefined) fail('An end time or duration must be given.');
  if (req.end !== undefined && req.duration !== undefined && req.duration !== INFINITE && req.start! + req.duration * 60 !== req.end) {
    fail('StartTime + Duration does not equal EndTime.');
  }
  if (req.end !== undefined && req.start! > req.end) fail('Start time cannot be after end time.');
  if (req.nodes === undefined && req.nodeCnt === undefined) fail('CoreCnt, Nodes, NodeCnt, BurstBuffer, Licenses or Watts must be specified.');
  if ((req.users ?? []).length === 0 && (req.accounts ?? []).length === 0) fail('Either Users/Groups and/or Accounts must be specified.');
  try {
    const answer = await callController<{ name: string }>(cluster, ['resv_create', { request: req }], (m) => `Error creating the reservation: ${m}`, 'start');
    process.stdout.write(`Reservation created: ${answer.name}\n`);
    return 0;
  } catch (error) {
    // scontrol's hint when it could not find free nodes for a count (observed on Slurm 22.05).
    if (error instanceof UserError && error.code === 'ESLURM_NODES_BUSY' && req.nodes === undefined && req.partition === undefined) {
      process.stdout.write('Note, unless nodes are directly requested a reservation must exist in a single partition.\n');
      process.stdout.write('If no partition is requested the default partition is assumed.\n');
    }
    throw error;
  }
}

/** `update ReservationName=... K=V...`: "Reservation updated." or scontrol's two error lines. */
export async function updateReservation(words: readonly string[], cluster: string | undefined, bin: string): Promise<number> {
  const req = parseWords(words, 'update');
  await callController(cluster, ['resv_update', { request: req }], (m) => `Error updating the reservation: ${m}\nslurm_update error: ${m}`, 'ESLURM_RESERVATION_INVALID');
  process.stdout.write('Reservation updated.\n');
  return 0;
}

/** `delete ReservationName=NAME`: silent on success. */
export async function deleteReservation(words: readonly string[], cluster: string | undefined): Promise<number> {
  const word = words[0];
  const match = word === undefined ? null : /^reservation(?:name)?=(.*)$/i.exec(word);
  if (!match) throw new UserError(`invalid keyword: ${word ?? ''}`);
  await callController(cluster, ['resv_delete', { name: match[1]! }], (m) => `delete_reservation ${word}: ${m}`, 'ESLURM_RESERVATION_INVALID');
  return 0;
}

/** `show reservation [NAME]`. */
export async function showReservations(args: readonly string[], options: { cluster?: string; json: boolean; oneliner: boolean }): Promise<number> {
  if (args.length > 1) throw new UserError('too many arguments for keyword:show');
  const views = (await listReservations(options.cluster)).filter((r) => args[0] === undefined || r.name === args[0]);
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ reservations: views }, null, 2)}\n`);
    return 0;
  }
  if (views.length === 0) {
    process.stdout.write(args[0] === undefined ? 'No reservations in the system\n' : `Reservation ${args[0]} not found\n`);
    return args[0] === undefined ? 0 : 1;
  }
  const now = Math.floor(Date.now() / 1000);
  process.stdout.write(views.map((r) => renderKvRecord(reservationLines(r, now), options.oneliner)).join(''));
  return 0;
}

// From the controller. Reservations outlive it: when it has left some in its state directory,
// it is started to answer (and to purge those that have ended).
async function listReservations(cluster: string | undefined): Promise<ReservationView[]> {
  const config = await loadCluster({ file: cluster });
  const saved = existsSync(resvStateFile(path.join(resolveStateDir(config), 'ctld')));
  const client = await openController(cluster, saved, 'slurm_load_reservations error:');
  if (!client) return [];
  try {
    return await client.call<ReservationView[]>('resv_list', {});
  } finally {
    client.close();
  }
}

// `scontrol show reservation` for one reservation, line by line as Slurm 22.05 prints it
// (observed: ReservationName=r1 StartTime=... Duration=00:10:00 / Nodes=node1 NodeCnt=1
// CoreCnt=4 ... Flags=SPEC_NODES / TRES=cpu=4 / Users=root ... State=ACTIVE ... / MaxStartDelay).
import { formatSlurmDate, secsToTimeStr } from '../../core/time-string.js';
import type { ReservationView } from '../../protocol/reservation.js';

export function reservationLines(r: ReservationView, now: number): string[] {
  const list = (items: readonly string[]): string => (items.length > 0 ? items.join(',') : '(null)');
  const state = r.start <= now && now < r.end ? 'ACTIVE' : 'INACTIVE';
  return [
    `ReservationName=${r.name} StartTime=${formatSlurmDate(r.start)} EndTime=${formatSlurmDate(r.end)} Duration=${secsToTimeStr(r.end - r.start)}`,
    `Nodes=${r.nodeList || '(null)'} NodeCnt=${r.nodes.length} CoreCnt=${r.cpus} Features=(null) PartitionName=${r.partition ?? '(null)'} Flags=${r.flags.join(',')}`,
    `TRES=cpu=${r.cpus}`,
    `Users=${list(r.users)} Groups=(null) Accounts=${list(r.accounts)} Licenses=(null) State=${state} BurstBuffer=(null) Watts=n/a`,
    'MaxStartDelay=(null)',
  ];
}

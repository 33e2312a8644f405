// A reservation as v0.0.38 writes it (slurmrestd 22.05's reservations.c keys): times in Unix
// seconds, lists comma-joined, flags by name. Only what tslurm keeps of a reservation.
import type { ReservationView } from '../../protocol/reservation.js';

export function reservationToData(r: ReservationView): Record<string, unknown> {
  return {
    accounts: r.accounts.join(','),
    core_count: r.cpus,
    end_time: r.end,
    flags: [...r.flags],
    name: r.name,
    node_count: r.nodes.length,
    node_list: r.nodeList,
    partition: r.partition ?? '',
    start_time: r.start,
    tres: `cpu=${r.cpus}`,
    users: r.users.join(','),
  };
}

// What sdiag's RPC tables count: each request a daemon served, by request name and by user,
// with the time its handler took (microseconds, as slurmctld counts them).
export interface RpcCount {
  count: number;
  totalMicros: number;
}

export class RpcStats {
  readonly byOp = new Map<string, RpcCount>();
  readonly byUser = new Map<number, RpcCount>();

  note(op: string, uid: number, micros: number): void {
    add(this.byOp, op, micros);
    add(this.byUser, uid, micros);
  }
}

function add<K>(table: Map<K, RpcCount>, key: K, micros: number): void {
  const entry = table.get(key);
  if (entry) {
    entry.count++;
    entry.totalMicros += micros;
  } else {
    table.set(key, { count: 1, totalMicros: micros });
  }
}

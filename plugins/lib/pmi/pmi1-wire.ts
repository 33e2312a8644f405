// PMI-1 ("simple" PMI v1.1) messages: one line of space-separated `key=value` pairs, ended by
// '\n', one request line answered by one response line (MPICH's src/pmi/simple, Slurm's
// src/plugins/mpi/pmi2/pmi1.c).

/** A parsed request: its `cmd` and the other pairs. */
export interface Pmi1Message {
  cmd: string;
  args: Map<string, string>;
}

/**
 * Parses one line (without its '\n'). `value=` is taken last and verbatim to the end of the
 * line: Open MPI's base64 pads with spaces, and splitting it on whitespace truncates it.
 */
export function parsePmi1Line(line: string): Pmi1Message {
  const args = new Map<string, string>();
  let rest = line.replace(/\r$/, '').replace(/^ +/, '');
  while (rest.length > 0) {
    if (rest.startsWith('value=')) {
      args.set('value', rest.slice('value='.length));
      break;
    }
    const space = rest.indexOf(' ');
    const token = space === -1 ? rest : rest.slice(0, space);
    rest = space === -1 ? '' : rest.slice(space + 1).replace(/^ +/, '');
    const eq = token.indexOf('=');
    if (eq === -1) args.set(token, '');
    else args.set(token.slice(0, eq), token.slice(eq + 1));
  }
  const cmd = args.get('cmd') ?? args.get('mcmd') ?? '';
  args.delete('cmd');
  return { cmd, args };
}

/** One response line: `cmd=<cmd> k=v ...\n`, in the order given (a `value` belongs last). */
export function formatPmi1(cmd: string, fields: ReadonlyArray<readonly [string, string | number]> = []): string {
  return `${['cmd=' + cmd, ...fields.map(([k, v]) => `${k}=${v}`)].join(' ')}\n`;
}

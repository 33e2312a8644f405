// PMI-2 messages: a 6-character decimal length, then that many bytes of `key=value;` pairs
// (`cmd=kvs-put;key=k;value=v;`). A ';' inside a value is written ";;". Slurm's libpmi2 and
// server pad the length on the right ("%-6d"), hydra on the left ("%6d"); both are read.

/** Characters of the length prefix. */
export const PMI2_LEN_DIGITS = 6;

export interface Pmi2Message {
  cmd: string;
  args: Map<string, string>;
}

/** Parses a frame's payload (without the length). */
export function parsePmi2(payload: string): Pmi2Message {
  const args = new Map<string, string>();
  let field = '';
  const flush = (): void => {
    if (field === '') return;
    const eq = field.indexOf('=');
    if (eq === -1) args.set(field, '');
    else args.set(field.slice(0, eq), field.slice(eq + 1));
    field = '';
  };
  for (let i = 0; i < payload.length; i += 1) {
    const c = payload[i]!;
    if (c !== ';') field += c;
    else if (payload[i + 1] === ';') {
      field += ';';
      i += 1;
    } else flush();
  }
  flush();
  const cmd = args.get('cmd') ?? '';
  args.delete('cmd');
  return { cmd, args };
}

/** `;` → `;;`, so the value survives the field separator. */
export function escapePmi2(value: string): string {
  return value.replaceAll(';', ';;');
}

/** A whole frame, length included: `cmd=<cmd>;k=v;...;` with values escaped. */
export function formatPmi2(cmd: string, fields: ReadonlyArray<readonly [string, string | number]> = []): string {
  const payload = [['cmd', cmd] as const, ...fields].map(([k, v]) => `${k}=${escapePmi2(String(v))};`).join('');
  // Latin-1 strings throughout (see reader.ts): one character is one byte on the wire.
  return String(payload.length).padEnd(PMI2_LEN_DIGITS) + payload;
}

/** A PMI-2 boolean (`TRUE`/`FALSE`). */
export function pmi2Bool(value: string | undefined): boolean {
  return value?.toUpperCase() === 'TRUE';
}

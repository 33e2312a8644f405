// The two wire formats on their own: PMI-1 lines, PMI-2 frames with ";;" escaping, and the
// reader that cuts a byte stream into messages whatever the chunk boundaries.
import { describe, expect, it } from 'vitest';
import { formatPmi1, parsePmi1Line } from '../../../../plugins/lib/pmi/pmi1-wire.js';
import { escapePmi2, formatPmi2, parsePmi2 } from '../../../../plugins/lib/pmi/pmi2-wire.js';
import { MessageReader, PmiWireError } from '../../../../plugins/lib/pmi/reader.js';

const args = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('PMI-1 lines', () => {
  it('parses a request into cmd and pairs', () => {
    expect(parsePmi1Line('cmd=init pmi_version=1 pmi_subversion=1')).toEqual({
      cmd: 'init',
      args: args({ pmi_version: '1', pmi_subversion: '1' }),
    });
    expect(parsePmi1Line('cmd=get_maxes')).toEqual({ cmd: 'get_maxes', args: new Map() });
  });

  it('takes value= verbatim to the end of the line (Open MPI pads base64 with spaces)', () => {
    const line = 'cmd=put kvsname=kvs_1 key=-allgather-shm-1-0 value=ab cd  ef=  ';
    expect(parsePmi1Line(line)).toEqual({
      cmd: 'put',
      args: args({ kvsname: 'kvs_1', key: '-allgather-shm-1-0', value: 'ab cd  ef=  ' }),
    });
    expect(parsePmi1Line('cmd=put kvsname=k key=e value=').args.get('value')).toBe('');
  });

  it('formats an answer line', () => {
    expect(formatPmi1('maxes', [['rc', 0], ['kvsname_max', 256]])).toBe('cmd=maxes rc=0 kvsname_max=256\n');
    expect(formatPmi1('barrier_out')).toBe('cmd=barrier_out\n');
  });
});

describe('PMI-2 frames', () => {
  it('parses fields, ";;" being a ";" inside a value', () => {
    expect(parsePmi2('cmd=kvs-put;key=card-0;value=addr;;of;;rank=0;')).toEqual({
      cmd: 'kvs-put',
      args: args({ key: 'card-0', value: 'addr;of;rank=0' }),
    });
    // An escaped ';' right before the separator, and a value that is only ';'.
    expect(parsePmi2('cmd=kvs-put;key=k;value=a;;;').args.get('value')).toBe('a;');
    expect(parsePmi2('cmd=kvs-put;key=k;value=;;;').args.get('value')).toBe(';');
    expect(parsePmi2('cmd=fullinit;pmirank=0;threaded=FALSE;')).toEqual({
      cmd: 'fullinit',
      args: args({ pmirank: '0', threaded: 'FALSE' }),
    });
  });

  it('writes the length as Slurm does ("%-6d") and escapes values', () => {
    expect(formatPmi2('kvs-put-response', [['rc', 0]])).toBe('26    cmd=kvs-put-response;rc=0;');
    expect(formatPmi2('kvs-get-response', [['rc', 0], ['found', 'TRUE'], ['value', 'a;b']])).toBe(
      '48    cmd=kvs-get-response;rc=0;found=TRUE;value=a;;b;',
    );
    expect(escapePmi2(';;x;')).toBe(';;;;x;;');
  });

  it('round-trips any value', () => {
    for (const value of ['', ';', ';;', 'a=b;c', ' sp ace ', 'x'.repeat(1000)]) {
      const wire = formatPmi2('kvs-put', [['key', 'k'], ['value', value]]);
      expect(parsePmi2(wire.slice(6)).args.get('value')).toBe(value);
      expect(Number.parseInt(wire.slice(0, 6), 10)).toBe(wire.length - 6);
    }
  });
});

describe('MessageReader', () => {
  const all = (reader: MessageReader): string[] => {
    const out: string[] = [];
    for (let m = reader.next(); m !== undefined; m = reader.next()) out.push(m);
    return out;
  };

  it('joins a line split over many reads, and splits reads that hold several lines', () => {
    const reader = new MessageReader();
    const stream = 'cmd=init pmi_version=1 pmi_subversion=1\ncmd=get_maxes\ncmd=get_appnum\n';
    for (const byte of stream.slice(0, 20)) reader.push(Buffer.from(byte));
    expect(all(reader)).toEqual([]);
    reader.push(Buffer.from(stream.slice(20)));
    expect(all(reader)).toEqual(['cmd=init pmi_version=1 pmi_subversion=1', 'cmd=get_maxes', 'cmd=get_appnum']);
    expect(reader.pending).toBe(0);
  });

  it('switches to frames after the init line, within one read', () => {
    const reader = new MessageReader();
    reader.push(Buffer.from('cmd=init pmi_version=2 pmi_subversion=0\n38    cmd=fullinit;pmirank=0;threaded=FALSE;14    cmd=job'));
    expect(reader.next()).toBe('cmd=init pmi_version=2 pmi_subversion=0');
    reader.mode = 'frame';
    expect(reader.next()).toBe('cmd=fullinit;pmirank=0;threaded=FALSE;');
    expect(reader.next()).toBeUndefined();
    reader.push(Buffer.from('-getid;'));
    expect(reader.next()).toBe('cmd=job-getid;');
  });

  it('reads hydra\'s right-aligned lengths ("%6d") and frames split anywhere', () => {
    const reader = new MessageReader();
    reader.mode = 'frame';
    const wire = '    26cmd=kvs-put-response;rc=0;' + '14    cmd=kvs-fence;';
    for (const byte of wire) reader.push(Buffer.from(byte, 'latin1'));
    expect(all(reader)).toEqual(['cmd=kvs-put-response;rc=0;', 'cmd=kvs-fence;']);
  });

  it('counts bytes, not characters, and passes every byte through', () => {
    const reader = new MessageReader();
    reader.mode = 'frame';
    const payload = Buffer.concat([Buffer.from('cmd=kvs-put;key=k;value='), Buffer.from('héllo ✓', 'utf8'), Buffer.from(';')]);
    reader.push(Buffer.concat([Buffer.from(String(payload.length).padEnd(6)), payload]));
    const message = reader.next()!;
    expect(Buffer.from(message, 'latin1').equals(payload)).toBe(true);
  });

  it('refuses a length that is not a number', () => {
    const reader = new MessageReader();
    reader.mode = 'frame';
    reader.push(Buffer.from('hello world\n'));
    expect(() => reader.next()).toThrow(PmiWireError);
  });
});

// tsinfo against sinfo. multi.yaml has the shape of the reference Slurm cluster (node[1-3],
// partitions debug* and small), so most expectations below are sinfo 22.05's output pasted
// as it was printed; the others are adapted from what sinfo printed for the same case.
import { describe, expect, it } from 'vitest';
import { fixture, runBin, startBin } from '../helpers/run-bin.js';

const multi = ['--cluster', fixture('clusters', 'multi.yaml')];
const states = ['--cluster', fixture('clusters', 'states.yaml')];
const gpu = ['--cluster', fixture('clusters', 'gpu.yaml')];
const tsinfo = (args: string[]) => runBin('tsinfo', args);
const lines = (...l: string[]) => l.map((s) => `${s}\n`).join('');
// The date line of -l and -i: ctime(3), `Sun Nov 22 01:02:03 2026`.
const DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\n/;

describe('tsinfo default formats (observed on Slurm 22.05, same cluster)', () => {
  it('sinfo', async () => {
    expect(await tsinfo(multi)).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: lines(
        'PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST',
        'debug*       up   infinite      3   idle node[1-3]',
        'small        up      10:00      1   idle node1',
      ),
    });
  });

  it('sinfo -h', async () => {
    expect((await tsinfo([...multi, '-h'])).stdout).toBe(
      lines('debug*       up   infinite      3   idle node[1-3]', 'small        up      10:00      1   idle node1'),
    );
  });

  it('sinfo -N', async () => {
    // Slurm lists node1's two partitions in either order (one thread per partition); we
    // keep partition order.
    expect((await tsinfo([...multi, '-N'])).stdout).toBe(
      lines(
        'NODELIST   NODES PARTITION STATE ',
        'node1          1    debug* idle  ',
        'node1          1     small idle  ',
        'node2          1    debug* idle  ',
        'node3          1    debug* idle  ',
      ),
    );
  });

  it('sinfo -l', async () => {
    const r = await tsinfo([...multi, '-l']);
    expect(r.stdout).toMatch(DATE);
    expect(r.stdout.replace(DATE, '')).toBe(
      lines(
        'PARTITION AVAIL  TIMELIMIT   JOB_SIZE ROOT OVERSUBS     GROUPS  NODES       STATE NODELIST',
        'debug*       up   infinite 1-infinite   no       NO        all      3        idle node[1-3]',
        'small        up      10:00 1-infinite   no       NO        all      1        idle node1',
      ),
    );
  });

  it('sinfo -lh has no date', async () => {
    expect((await tsinfo([...multi, '-lh'])).stdout).toBe(
      lines(
        'debug*       up   infinite 1-infinite   no       NO        all      3        idle node[1-3]',
        'small        up      10:00 1-infinite   no       NO        all      1        idle node1',
      ),
    );
  });

  it('sinfo -Nl', async () => {
    const r = await tsinfo([...multi, '-Nl']);
    expect(r.stdout.replace(DATE, '')).toBe(
      lines(
        'NODELIST   NODES PARTITION       STATE CPUS    S:C:T MEMORY TMP_DISK WEIGHT AVAIL_FE REASON              ',
        'node1          1    debug*        idle 4       1:4:1   2000        0      1   (null) none                ',
        'node1          1     small        idle 4       1:4:1   2000        0      1   (null) none                ',
        'node2          1    debug*        idle 4       1:4:1   2000        0      1   (null) none                ',
        'node3          1    debug*        idle 4       1:4:1   2000        0      1   (null) none                ',
      ),
    );
  });

  it('sinfo -s', async () => {
    expect((await tsinfo([...multi, '-s'])).stdout).toBe(
      lines(
        'PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST',
        'debug*       up   infinite          0/3/0/3 node[1-3]',
        'small        up      10:00          0/1/0/1 node1',
      ),
    );
  });

  it('sinfo -R with nothing down', async () => {
    expect((await tsinfo([...multi, '-R'])).stdout).toBe('REASON               USER      TIMESTAMP           NODELIST\n');
  });

  it('sinfo -s -N', async () => {
    expect((await tsinfo([...multi, '-s', '-N'])).stdout).toBe(
      lines(
        'PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST',
        'debug*       up   infinite          0/1/0/1 node1',
        'small        up      10:00          0/1/0/1 node1',
        'debug*       up   infinite          0/1/0/1 node2',
        'debug*       up   infinite          0/1/0/1 node3',
      ),
    );
  });
});

describe('tsinfo -o and -O (observed on Slurm 22.05, same cluster)', () => {
  it("sinfo -o '%P %c %m %f'", async () => {
    expect((await tsinfo([...multi, '-o', '%P %c %m %f'])).stdout).toBe(
      lines('PARTITION CPUS MEMORY AVAIL_FEATURES', 'debug* 4 2000 (null)', 'small 4 2000 (null)'),
    );
  });

  it("sinfo -o 'x%Py %D': text around fields", async () => {
    expect((await tsinfo([...multi, '-o', 'x%Py %D'])).stdout).toBe(lines('xPARTITIONy NODES', 'xdebug*y 3', 'xsmally 1'));
  });

  it("sinfo -o '%5P|%-5P|%.3P|%5N|%3t|%.2t': widths, cuts, and - as an unknown field", async () => {
    const r = await tsinfo([...multi, '-o', '%5P|%-5P|%.3P|%5N|%3t|%.2t']);
    expect(r.stdout).toBe(lines('PARTI|%-5P|PAR|NODEL|STA|ST', 'debu*|%-5P|de*|node[|idl|id', 'small|%-5P|sma|node1|idl|id'));
    expect(r.stderr).toBe('tsinfo: error: Invalid node format specification: -\n');
    expect(r.exitCode).toBe(0);
  });

  it('sinfo -o %Q: an unknown field is printed as written, reported, and sinfo carries on', async () => {
    // sinfo prints the message without its "sinfo: error: " prefix here; tslurm keeps its own.
    // With no field to tell them apart, both partitions fall on one line.
    expect(await tsinfo([...multi, '-o', '%Q'])).toEqual({
      exitCode: 0,
      stdout: lines('%Q', '%Q'),
      stderr: 'tsinfo: error: Invalid node format specification: Q\n',
    });
  });

  it("sinfo -o '%3f|%.3f|%6f': a NULL string is printed as glibc prints it", async () => {
    expect((await tsinfo([...multi, '-o', '%3f|%.3f|%6f|'])).stdout).toBe(lines('AVA|AVA|AVAIL_|', '   |(nu|(null)|'));
  });

  it('sinfo -O partition,nodes', async () => {
    expect((await tsinfo([...multi, '-O', 'partition,nodes'])).stdout).toBe(
      lines('PARTITION           NODES               ', 'debug*              3                   ', 'small               1                   '),
    );
  });

  it("sinfo -O 'partition:5,nodes:.8,cpus:3' and 'partition:10|,nodes'", async () => {
    expect((await tsinfo([...multi, '-O', 'partition:5,nodes:.8,cpus:3'])).stdout).toBe(
      lines('PARTI   NODESCPU', 'debu*       34  ', 'small       14  '),
    );
    expect((await tsinfo([...multi, '-O', 'partition:10|,nodes'])).stdout).toBe(
      lines('PARTITION |NODES               ', 'debug*    |3                   ', 'small     |1                   '),
    );
  });

  it('sinfo -O with an unknown name: reported with sinfo\'s words, printed as nothing', async () => {
    expect(await tsinfo([...multi, '-O', 'partition,bogus'])).toEqual({
      exitCode: 0,
      stdout: lines('PARTITION           ', 'debug*              ', 'small               '),
      stderr: 'tsinfo: error: Invalid job format specification: bogus\n',
    });
  });

  it('sinfo -O statecompact,statelong,reason,timestamp,user,nodelist', async () => {
    expect((await tsinfo([...multi, '-O', 'statecompact,statelong,reason,timestamp,user,nodelist'])).stdout).toBe(
      lines(
        'STATE               STATE               REASON              TIMESTAMP           USER                NODELIST            ',
        'idle                idle                none                Unknown             Unknown             node[1-3]           ',
      ),
    );
  });

  it('sinfo -O nodeaddr,port,memory,cpusstate,nodeaiot,nodeai,size,time', async () => {
    expect((await tsinfo([...multi, '-O', 'nodeaddr,port,memory,cpusstate,nodeaiot,nodeai,size,time'])).stdout).toBe(
      lines(
        'NODE_ADDR           PORT                MEMORY              CPUS(A/I/O/T)       NODES(A/I/O/T)      NODES(A/I)          JOB_SIZE            TIMELIMIT           ',
        '127.0.0.1           17001               2000                0/12/0/12           0/3/0/3             0/3                 1-infinite          infinite            ',
        '127.0.0.1           17001               2000                0/4/0/4             0/1/0/1             0/1                 1-infinite          10:00               ',
      ),
    );
  });

  it('prints N/A for what only a real slurmd measures (CPU load, free memory)', async () => {
    expect((await tsinfo([...multi, '-h', '-o', '%O %e', '-p', 'small'])).stdout).toBe('N/A N/A\n');
  });
});

describe('tsinfo filters (observed on Slurm 22.05, same cluster)', () => {
  it('sinfo -p small, -p nope', async () => {
    expect((await tsinfo([...multi, '-p', 'small'])).stdout).toBe(
      lines('PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST', 'small        up      10:00      1   idle node1'),
    );
    expect(await tsinfo([...multi, '-p', 'nope'])).toEqual({
      exitCode: 0,
      stdout: 'PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n',
      stderr: '',
    });
  });

  it('sinfo -n node1, -n nope', async () => {
    expect((await tsinfo([...multi, '-n', 'node1'])).stdout).toBe(
      lines(
        'PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST',
        'debug*       up   infinite      1   idle node1',
        'small        up      10:00      1   idle node1',
      ),
    );
    expect((await tsinfo([...multi, '-n', 'nope'])).stdout).toBe(
      lines(
        'PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST',
        'debug*       up   infinite      0    n/a ',
        'small        up      10:00      0    n/a ',
      ),
    );
  });

  it('sinfo -d: no node is dead', async () => {
    expect((await tsinfo([...multi, '-d', '-h'])).stdout).toBe(
      lines('debug*       up   infinite      0    n/a ', 'small        up      10:00      0    n/a '),
    );
  });

  it('sinfo -S -D', async () => {
    expect((await tsinfo([...multi, '-h', '-S', '-D', '-o', '%P %D'])).stdout).toBe(lines('debug* 3', 'small 1'));
    expect((await tsinfo([...multi, '-h', '-S', 'D', '-o', '%P %D'])).stdout).toBe(lines('small 1', 'debug* 3'));
  });

  it('sinfo -T: no reservations', async () => {
    expect((await tsinfo([...multi, '-T'])).stdout).toBe('No reservations in the system\n');
  });
});

describe('tsinfo with down and drained nodes (states.yaml; layouts observed on Slurm 22.05 with node3 drained)', () => {
  it('groups nodes by state within a partition, higher states first', async () => {
    // Observed: "debug*  up  infinite  1  drain node3" above "... 2  idle node[1-2]".
    expect((await tsinfo(states)).stdout).toBe(
      lines(
        'PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST',
        'batch*       up 1-00:00:00      1  drain n3',
        'batch*       up 1-00:00:00      2   idle n[1-2]',
        'batch*       up 1-00:00:00      2   down n[4-5]',
        'debug        up      30:00      1  drain n3',
        'debug        up      30:00      1   idle n1',
        'spare      down   infinite      0    n/a ',
      ),
    );
  });

  it('-l prints the long state names', async () => {
    expect((await tsinfo([...states, '-lh'])).stdout).toBe(
      lines(
        'batch*       up 1-00:00:00 1-infinite   no       NO        all      1     drained n3',
        'batch*       up 1-00:00:00 1-infinite   no       NO        all      2        idle n[1-2]',
        'batch*       up 1-00:00:00 1-infinite   no       NO        all      2        down n[4-5]',
        'debug        up      30:00          1   no       NO        all      1     drained n3',
        'debug        up      30:00          1   no       NO        all      1        idle n1',
        'spare      down   infinite 1-infinite   no       NO        all      0         n/a ',
      ),
    );
  });

  it('-R lists reasons once per node, whatever the partitions', async () => {
    // A reason from the cluster file has no author or time, like one from slurm.conf
    // (scontrol update shows "root  2026-11-22T01:03:32" there).
    expect((await tsinfo([...states, '-R'])).stdout).toBe(
      lines(
        'REASON               USER      TIMESTAMP           NODELIST',
        'disk failing         Unknown   Unknown             n3',
        'power supply         Unknown   Unknown             n4',
        'none                 Unknown   Unknown             n5',
      ),
    );
    expect((await tsinfo([...states, '-Rlh'])).stdout).toBe(
      lines(
        'disk failing         Unknown      Unknown             drain  n3',
        'power supply         Unknown      Unknown             down   n4',
        'none                 Unknown      Unknown             down   n5',
      ),
    );
  });

  it('-t drain / down / idle (observed: -t idle lists the drained idle node too)', async () => {
    expect((await tsinfo([...states, '-h', '-t', 'drain'])).stdout).toBe(
      lines('batch*       up 1-00:00:00      1  drain n3', 'debug        up      30:00      1  drain n3', 'spare      down   infinite      0    n/a '),
    );
    expect((await tsinfo([...states, '-h', '-t', 'down', '-p', 'batch'])).stdout).toBe('batch*       up 1-00:00:00      2   down n[4-5]\n');
    expect((await tsinfo([...states, '-h', '-t', 'idle', '-p', 'debug'])).stdout).toBe(
      lines('debug        up      30:00      1  drain n3', 'debug        up      30:00      1   idle n1'),
    );
  });

  it('-s counts drained and down nodes as other; FUTURE nodes are not listed', async () => {
    expect((await tsinfo([...states, '-s'])).stdout).toBe(
      lines(
        'PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST',
        'batch*       up 1-00:00:00          0/2/3/5 n[1-5]',
        'debug        up      30:00          0/1/1/2 n[1,3]',
        'spare      down   infinite          0/0/0/0 ',
      ),
    );
  });

  it('-N -o with reasons', async () => {
    expect((await tsinfo([...states, '-N', '-o', '%N %P %T %E'])).stdout).toBe(
      lines(
        'NODELIST PARTITION STATE REASON',
        'n1 batch* idle none',
        'n1 debug idle none',
        'n2 batch* idle none',
        'n3 batch* drained disk failing',
        'n3 debug drained disk failing',
        'n4 batch* down power supply',
        'n5 batch* down none',
      ),
    );
  });
});

describe('tsinfo on mixed hardware (gpu.yaml)', () => {
  it('shows ranges as min+ unless the format splits the nodes', async () => {
    expect((await tsinfo([...gpu, '-o', '%P %c %m %N'])).stdout).toBe(
      lines('PARTITION CPUS MEMORY NODELIST', 'cpu* 32 65536 cpu[1-2]', 'gpu 32+ 262144+ gpu[1-3]'),
    );
    expect((await tsinfo([...gpu, '-e', '-o', '%P %c %m %N'])).stdout).toBe(
      lines('PARTITION CPUS MEMORY NODELIST', 'cpu* 32 65536 cpu[1-2]', 'gpu 32 262144 gpu[1-2]', 'gpu 48 524288 gpu3'),
    );
  });

  it('splits on features and gres', async () => {
    expect((await tsinfo([...gpu, '-o', '%P %c %f %G %w'])).stdout).toBe(
      lines(
        'PARTITION CPUS AVAIL_FEATURES GRES WEIGHT',
        'cpu* 32 avx2,skylake (null) 1',
        'gpu 32 avx512 gpu:4 10',
        'gpu 48 avx512,a100 gpu:a100:8,nvme:2 20',
      ),
    );
  });

  it('prints time limits and job sizes', async () => {
    expect((await tsinfo([...gpu, '-o', '%P %l %L %s %h %z'])).stdout).toBe(
      lines(
        'PARTITION TIMELIMIT DEFAULTTIME JOB_SIZE OVERSUBSCRIBE S:C:T',
        'cpu* infinite n/a 1-infinite NO 2:8:2',
        'gpu 1-00:00:00 1:00:00 1-infinite NO 2:16+:1',
      ),
    );
  });
});

describe('tsinfo --json / --yaml', () => {
  it("dumps every node with Slurm's data_parser keys", async () => {
    const r = await tsinfo([...states, '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { meta: { plugin: { type: string } }; errors: unknown[]; nodes: Array<Record<string, unknown>> };
    expect(doc.meta.plugin.type).toBe('openapi/v0.0.38');
    expect(doc.errors).toEqual([]);
    expect(doc.nodes.map((n) => n.name)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(doc.nodes[2]).toMatchObject({
      name: 'n3',
      state: 'idle',
      state_flags: ['DRAIN'],
      reason: 'disk failing',
      partitions: ['batch', 'debug'],
      cpus: 4,
      real_memory: 2000,
      tres: 'cpu=4,mem=2000M,billing=4',
      alloc_cpus: 0,
      idle_cpus: 4,
    });
    expect(doc.nodes[3]).toMatchObject({ name: 'n4', state: 'down', state_flags: [] });
  });

  it('prints the same as YAML', async () => {
    const r = await tsinfo([...multi, '--yaml']);
    expect(r.stdout).toMatch(/^meta:\n {2}plugin:\n {4}type: openapi\/v0\.0\.38\n/);
    expect(r.stdout).toContain('\n  - boards: 1\n');
  });
});

describe('tsinfo errors (observed on Slurm 22.05)', () => {
  it('refuses a bad state with the list of valid ones', async () => {
    expect(await tsinfo([...multi, '-t', 'bogus'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'tsinfo: error: Bad state string: "bogus"\n' +
        'tsinfo: error: valid states: unknown,down,idle,allocated,?,mixed,future,drain,drained,draining,no_respond,reserved,perfctrs,cloud,completing,powering_down,powered_down,power_down,powering_up,fail,maint,reboot,reboot^,unknown\n',
    });
  });

  it('refuses -i 0, -a with -p, and a malformed node list', async () => {
    expect(await tsinfo([...multi, '-i', '0'])).toEqual({ exitCode: 1, stdout: '', stderr: 'tsinfo: error: Error: invalid entry for --iterate=0\n' });
    expect(await tsinfo([...multi, '-a', '-p', 'debug'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tsinfo: error: Conflicting options, -a and -p, specified. Please choose one or the other.\n',
    });
    // sinfo accepts `n[1-` and finds nothing; tslurm refuses malformed hostlists.
    expect(await tsinfo([...multi, '-n', 'n[1-'])).toEqual({ exitCode: 1, stdout: '', stderr: "tsinfo: error: 'n[1-' invalid entry for --nodes\n" });
  });

  it('refuses unknown options in getopt\'s words', async () => {
    expect(await tsinfo(['--bogus'])).toEqual({ exitCode: 1, stdout: '', stderr: "tsinfo: unrecognized option '--bogus'\nTry \"tsinfo --help\" for more information\n" });
  });
});

describe('tsinfo -i', () => {
  it('lists again with the date, a blank line between listings', async () => {
    const run = startBin('tsinfo', [...multi, '-i', '1', '-p', 'small']);
    let out = '';
    run.stdout!.on('data', (chunk: Buffer) => {
      out += String(chunk);
      if (out.split('PARTITION').length > 2) run.kill('SIGTERM');
    });
    await run;
    const block = /[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\nPARTITION AVAIL {2}TIMELIMIT {2}NODES {2}STATE NODELIST\nsmall {8}up {6}10:00 {6}1 {3}idle node1\n/;
    expect(out).toMatch(new RegExp(`^${block.source}\\n${block.source}`));
  });
});

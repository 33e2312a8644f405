// Fuzz of every command's options through the real bins (see test/helpers/fuzz.ts for what
// each run must satisfy). Per command: FUZZ_RUNS drawn command lines of up to four options,
// mostly bad, which must fail with message lines only (or succeed), never with `internal
// error` or a stack trace; half as many with a single option on a good line, which must fail
// in exactly one line (Slurm's own continuation lines aside) or succeed; a handful of good
// ones, which must succeed. Options that wait by design (`tsqueue -i`,
// `tsbatch --wait`) are left out. Each command gets its own state directory, and the
// controller a run may start there is stopped at the end.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { testController, type TestController } from '../helpers/controller.js';
import { argvOf, drawArgvs, FUZZ_RUNS, fuzzRuns, report, type OptionSpec } from '../helpers/fuzz.js';
import { clusterYaml, extremeNumberYaml } from '../helpers/cluster-yaml-arb.js';

const common: OptionSpec[] = [
  { short: 'v', long: 'verbose', value: 'none' },
  { long: 'cluster', value: 'required', values: ['/nonexistent.yaml', '/etc/hostname', '/tmp'] },
];

const jobOptions: OptionSpec[] = [
  { short: 'n', long: 'ntasks', value: 'required' },
  { short: 'N', long: 'nodes', value: 'required', values: ['1', '2', '1-2', '-3', '0', '3-1', '1-', '99'] },
  { short: 'c', long: 'cpus-per-task', value: 'required' },
  { long: 'ntasks-per-node', value: 'required' },
  { short: 'p', long: 'partition', value: 'required', values: ['debug', 'nosuch', 'debug,debug'] },
  { short: 'w', long: 'nodelist', value: 'required', values: ['node1', 'node[1-2]', 'nosuch', 'node[1-9]'] },
  { short: 'x', long: 'exclude', value: 'required', values: ['node1', 'node[1-4]'] },
  { short: 'C', long: 'constraint', value: 'required', values: ['a&b', 'a|b', '[a*2&b]', 'x*', '&'] },
  { long: 'mem', value: 'required', values: ['100', '1G', '0', '1P', '100MB', '99999999999T'] },
  { long: 'mem-per-cpu', value: 'required' },
  { long: 'gres', value: 'required', values: ['gpu:1', 'gpu', 'gpu:0', 'nosuch:1'] },
  { short: 'G', long: 'gpus', value: 'required' },
  { long: 'exclusive', value: 'none' },
  { short: 'O', long: 'overcommit', value: 'none' },
  { short: 't', long: 'time', value: 'required', values: ['1', '1:00', '0', 'UNLIMITED', '1-2:3:4', '60:00:00:00'] },
  { short: 'J', long: 'job-name', value: 'required' },
  { short: 'o', long: 'output', value: 'required' },
  { short: 'e', long: 'error', value: 'required' },
  { short: 'i', long: 'input', value: 'required' },
  { long: 'export', value: 'required', values: ['ALL', 'NONE', 'NONE,A=1', 'A', '=', 'ALL,X=$(true)'] },
  { short: 'D', long: 'chdir', value: 'required' },
  { long: 'reservation', value: 'required' },
  { short: 'Q', long: 'quiet', value: 'none' },
];

const tsrunOptions: OptionSpec[] = [
  ...common,
  ...jobOptions,
  { short: 'm', long: 'distribution', value: 'required', values: ['block', 'cyclic', 'plane=2', 'arbitrary', 'block:block,pack', 'x:y:z:w'] },
  { short: 'l', long: 'label', value: 'none' },
  { short: 'u', long: 'unbuffered', value: 'none' },
  { short: 'K', long: 'kill-on-bad-exit', value: 'optional', values: ['0', '1', '2'] },
  { long: 'mpi', value: 'required', values: ['none', 'pmi2', 'pmix', 'list', 'nosuch'] },
  { long: 'multi-prog', value: 'none' },
  { long: 'test-only', value: 'none' },
];

const tsbatchOptions: OptionSpec[] = [
  ...common,
  ...jobOptions,
  { long: 'contiguous', value: 'none' },
  { short: 'a', long: 'array', value: 'required', values: ['0-3', '1,3', '0-7:2%2', '', '0-3%0', '5-1', '0-99999999', 'abc'] },
  { short: 'd', long: 'dependency', value: 'required', values: ['afterok:1', 'singleton', 'afterany:1?afterok:2', 'foo', 'afterok:99999999'] },
  { short: 'H', long: 'hold', value: 'none' },
  { short: 'b', long: 'begin', value: 'required', values: ['now', 'now+1hour', '16:00', 'tomorrow', '2030-01-31T08:00', 'never'] },
  { long: 'parsable', value: 'none' },
  { long: 'test-only', value: 'none' },
  { long: 'requeue', value: 'none' },
  { long: 'no-requeue', value: 'none' },
  { long: 'kill-on-invalid-dep', value: 'required', values: ['yes', 'no', 'maybe'] },
  { long: 'open-mode', value: 'required', values: ['append', 'truncate', 'x'] },
  { long: 'comment', value: 'required' },
];

const tsqueueOptions: OptionSpec[] = [
  ...common,
  { short: 'A', long: 'account', value: 'required' },
  { short: 'a', long: 'all', value: 'none' },
  { short: 'r', long: 'array', value: 'none' },
  { long: 'array-unique', value: 'none' },
  { short: 'h', long: 'noheader', value: 'none' },
  { long: 'hide', value: 'none' },
  { short: 'j', long: 'jobs', value: 'optional', values: ['1', '1,2', '1_2', 'abc', '1_[1-3]'] },
  { long: 'json', value: 'none' },
  { long: 'yaml', value: 'none' },
  { short: 'l', long: 'long', value: 'none' },
  { short: 'L', long: 'licenses', value: 'required' },
  { long: 'me', value: 'none' },
  { short: 'n', long: 'name', value: 'required' },
  { long: 'noconvert', value: 'none' },
  { short: 'o', long: 'format', value: 'required', values: ['%.10i %T', '%all', '%Z%.5000j', '%', '%-5P', '%.65537i', '%i%', '%.999999999i'] },
  { short: 'O', long: 'Format', value: 'required', values: ['JobID,Name:20', 'JobID:-5', 'JobID:.99999999', 'JobID:999999999', 'nosuch', ',', 'State:'] },
  { short: 'p', long: 'partitions', value: 'required' },
  { short: 'P', long: 'priority', value: 'none' },
  { short: 'q', long: 'qos', value: 'required' },
  { short: 'R', long: 'reservation', value: 'required' },
  { short: 's', long: 'steps', value: 'optional', values: ['1.0', '1.batch', 'x'] },
  { short: 'S', long: 'sort', value: 'required', values: ['P,t,-p', 'i', '-', 'Z', ',,'] },
  { long: 'start', value: 'none' },
  { short: 't', long: 'states', value: 'required', values: ['PD,R', 'all', 'nosuch', ''] },
  { short: 'u', long: 'user', value: 'required', values: ['root', 'nosuchuser', '0', '99999'] },
  { short: 'w', long: 'nodelist', value: 'required' },
  { long: 'usage', value: 'none' },
];

const tsinfoOptions: OptionSpec[] = [
  ...common,
  { short: 'a', long: 'all', value: 'none' },
  { short: 'd', long: 'dead', value: 'none' },
  { short: 'e', long: 'exact', value: 'none' },
  { short: 'h', long: 'noheader', value: 'none' },
  { long: 'hide', value: 'none' },
  { long: 'json', value: 'none' },
  { long: 'yaml', value: 'none' },
  { long: 'local', value: 'none' },
  { short: 'l', long: 'long', value: 'none' },
  { short: 'n', long: 'nodes', value: 'required' },
  { short: 'N', long: 'Node', value: 'none' },
  { short: 'o', long: 'format', value: 'required', values: ['%P %D', '%all', '%.5000P', '%', '%-5P', '%.65537P', '%z%X%Y%Z', '%.999999999P'] },
  { short: 'O', long: 'Format', value: 'required', values: ['partition,nodes', 'Partition:.99999999', 'Partition:999999999', 'nosuch', ',', 'nodelist:'] },
  { short: 'p', long: 'partition', value: 'required' },
  { short: 'r', long: 'responding', value: 'none' },
  { short: 'R', long: 'list-reasons', value: 'none' },
  { short: 's', long: 'summarize', value: 'none' },
  { short: 'S', long: 'sort', value: 'required', values: ['#P,-t', 'P', '-', 'Z'] },
  { short: 't', long: 'states', value: 'required', values: ['idle', 'alloc,mix', 'nosuch', ''] },
  { short: 'T', long: 'reservation', value: 'none' },
  { long: 'usage', value: 'none' },
];

const tscancelOptions: OptionSpec[] = [
  ...common,
  { short: 'u', long: 'user', value: 'required', values: ['root', 'nosuchuser', '0'] },
  { short: 'n', long: 'name', value: 'required' },
  { long: 'jobname', value: 'required' },
  { short: 'p', long: 'partition', value: 'required' },
  { short: 't', long: 'state', value: 'required', values: ['PENDING', 'RUNNING', 'SUSPENDED', 'COMPLETED', 'pd', 'x'] },
  { short: 'w', long: 'nodelist', value: 'required' },
  { short: 's', long: 'signal', value: 'required', values: ['USR1', 'SIGTERM', '9', '0', '65', 'FOO', 'KILL'] },
  { short: 'b', long: 'batch', value: 'none' },
  { short: 'Q', long: 'quiet', value: 'none' },
];

const tsbcastOptions: OptionSpec[] = [
  ...common,
  { short: 'f', long: 'force', value: 'none' },
  { short: 'p', long: 'preserve', value: 'none' },
  { short: 'j', long: 'jobid', value: 'required', values: ['1', '1.0', '1+0', 'abc', '0', '1.batch'] },
  { short: 'F', long: 'fanout', value: 'required' },
  { short: 'C', long: 'compress', value: 'optional', values: ['lz4', 'zlib', 'none', 'x'] },
  { short: 's', long: 'size', value: 'required' },
  { short: 't', long: 'timeout', value: 'required' },
];

const tsctldOptions: OptionSpec[] = [
  ...common,
  { long: 'idle-exit', value: 'required' },
  { long: 'simulate-out', value: 'required' },
  { long: 'select', value: 'required', values: ['select/linear', 'cons_tres', 'select/nosuch', 'mpi/pmi2'] },
  { long: 'sched', value: 'required', values: ['sched/backfill', 'builtin', 'sched/nosuch'] },
];

const tscontrolOptions: OptionSpec[] = [
  ...common,
  { long: 'json', value: 'none' },
  { short: 'o', long: 'oneliner', value: 'none' },
  { short: 'F', long: 'future', value: 'none' },
];

const word = fc.oneof(
  fc.constantFrom('1', '2', '1_2', '1.0', 'node1', 'node[1-2]', 'debug', 'ALL', 'abc', '', 'JobId=1', 'TimeLimit=5', 'State=DRAIN',
    'Reason=x', 'NodeName=node1', 'Partition=nosuch', 'ReservationName=r', 'Nodes=ALL', 'StartTime=now', 'Duration=10',
    'Users=root', 'Flags=MAINT', 'n[1-99999999]', 'x=y=z', '=', '99999999999999999999'),
  fc.string({ maxLength: 8 }).filter((s) => !s.includes('\0')),
);

const tscontrolWords = fc.oneof(
  fc.tuple(fc.constantFrom('show'), fc.constantFrom('job', 'node', 'partition', 'config', 'plugins', 'steps', 'reservation', 'hostnames', 'hostlist', 'hostlistsorted', 'nosuch', 'jobs', 'nodes'), fc.array(word, { maxLength: 2 }))
    .map(([a, b, rest]) => [a, b, ...rest]),
  fc.tuple(fc.constantFrom('update', 'hold', 'uhold', 'release', 'requeue', 'suspend', 'resume', 'delete', 'ping', 'reconfigure', 'nosuch', ''), fc.array(word, { maxLength: 3 }))
    .map(([a, rest]) => [a, ...rest]),
);

const ids = fc.array(fc.constantFrom('1', '2', '1_2', '1_[1-3]', '1.0', '1.batch', 'abc', '0', '-1', '99999999999999999999', '1_', '_1', '1..2', ''), { maxLength: 3 });

// What each command line ends with: the program of tsrun, the script of tsbatch, ...
const tails: Record<string, fc.Arbitrary<string[]>> = {
  tsrun: fc.constantFrom(['--test-only', 'true'], ['--test-only', 'true'], ['true'], [], ['/nonexistent/prog']),
  tsbatch: fc.constantFrom(['--test-only', '--wrap', 'true'], ['--test-only', '--wrap', 'true'], ['--wrap', 'true'], ['script.sh'], ['/tmp'], ['/nonexistent.sh'], []),
  tsqueue: fc.constant([]),
  tsinfo: fc.constant([]),
  tscancel: ids,
  tsbcast: fc.constantFrom(['/etc/hostname', '/tmp/tslurm-fuzz-bcast'], ['/nonexistent', 'x'], ['/etc/hostname'], []),
  // Every tsctld line ends with something that keeps a daemon from starting.
  tsctld: fc.constantFrom(['--simulate', '/nonexistent/trace.swf'], ['--bogus'], ['-D', 'extra-argument']),
  tscontrol: tscontrolWords,
};

// A tail that is fine on its own (tsctld's keeps a daemon from starting: an option's own
// error comes first, or --help/-V end the line first).
const neutralTails: Record<string, string[]> = {
  tsrun: ['--test-only', 'true'],
  tsbatch: ['--test-only', '--wrap', 'true'],
  tsqueue: [],
  tsinfo: [],
  tscancel: ['12345'],
  tsbcast: ['-j', '12345', '/etc/hostname', '/tmp/tslurm-fuzz-bcast'],
  tsctld: ['--simulate', '/nonexistent/trace.swf'],
  tscontrol: ['show', 'partition'],
};

const goodOnes: Record<string, fc.Arbitrary<string[]>> = {
  tsrun: fc
    .record({ nodes: fc.integer({ min: 1, max: 2 }), extra: fc.integer({ min: 0, max: 2 }), cpus: fc.integer({ min: 1, max: 2 }), time: fc.integer({ min: 1, max: 600 }), label: fc.boolean(), dist: fc.constantFrom('block', 'cyclic') })
    .map((g) => ['--test-only', '-N', String(g.nodes), '-n', String(g.nodes + g.extra), '-c', String(g.cpus), '-t', String(g.time), '-m', g.dist, ...(g.label ? ['-l'] : []), '-J', 'fuzz', 'true']),
  tsbatch: fc
    .record({ ntasks: fc.integer({ min: 1, max: 4 }), array: fc.constantFrom('0-3', '1,3', '0-7:2%2'), time: fc.constantFrom('10', '1:00:00', '0-1'), mem: fc.constantFrom('100', '1G'), begin: fc.constantFrom('now', 'now+1hour') })
    .map((g) => ['--test-only', '-n', String(g.ntasks), '-a', g.array, '-t', g.time, '--mem', g.mem, '--begin', g.begin, '-o', 'out-%A_%a.txt', '--wrap', 'true']),
  tsqueue: fc.constantFrom(['-h'], ['-l'], ['-t', 'PD,R'], ['-o', '%.10i %T %j'], ['-O', 'JobID,Name:20,State'], ['-S', 'i'], ['-u', 'root'], ['--json'], ['-r', '-a']),
  tsinfo: fc.constantFrom(['-h'], ['-l'], ['-N'], ['-s'], ['-R'], ['-o', '%P %D %t'], ['-O', 'partition,nodes,statelong'], ['-p', 'debug'], ['-t', 'idle'], ['--json']),
  tscancel: fc.constantFrom(['12345'], ['12345_2'], ['-u', 'root', '-t', 'PENDING'], ['-n', 'nosuchname']),
  tsctld: fc.constantFrom(['--help'], ['-V']),
  tscontrol: fc.constantFrom(['show', 'partition'], ['show', 'node', 'node1'], ['show', 'config'], ['show', 'hostnames', 'n[1-3]'], ['show', 'hostlist', 'n1,n2'], ['-o', 'show', 'nodes']),
  tsbcast: fc.constantFrom(['--help'], ['-V']),
};

const optionTables: Record<string, OptionSpec[]> = {
  tsrun: tsrunOptions,
  tsbatch: tsbatchOptions,
  tsqueue: tsqueueOptions,
  tsinfo: tsinfoOptions,
  tscancel: tscancelOptions,
  tsbcast: tsbcastOptions,
  tsctld: tsctldOptions,
  tscontrol: tscontrolOptions,
};

const GOOD_RUNS = 4;

describe('fuzzing every command\'s options', () => {
  const controllers: TestController[] = [];
  afterAll(async () => {
    await Promise.all(controllers.map((c) => c.stop()));
  });

  it.each(Object.keys(optionTables).map((bin, salt) => [bin, salt] as const))(
    '%s: bad input fails in one line, good input succeeds',
    async (bin, salt) => {
      const ctl = testController({ TSLURM_CTLD_IDLE_EXIT: '30' });
      controllers.push(ctl);
      writeFileSync(path.join(ctl.workDir, 'script.sh'), '#!/bin/sh\n#SBATCH -J fuzz\ntrue\n');
      const run = { env: ctl.env, cwd: ctl.workDir };
      const bad = drawArgvs(argvOf(optionTables[bin]!, tails[bin]!), FUZZ_RUNS, salt);
      // One option on an otherwise good line: at most one problem, so at most one line.
      const single = drawArgvs(argvOf(optionTables[bin]!, fc.constant(neutralTails[bin]!), 1), Math.ceil(FUZZ_RUNS / 2), salt);
      const good = drawArgvs(goodOnes[bin]!, GOOD_RUNS, salt);
      const failures = [
        ...(await fuzzRuns(bin, bad, { expect: 'failure-or-success', run })),
        ...(await fuzzRuns(bin, single, { expect: 'one-problem', run })),
        ...(await fuzzRuns(bin, good, { expect: 'success', run })),
      ];
      expect(failures, report(failures)).toEqual([]);
    },
    300_000,
  );

  // The loader is fuzzed in-process (test/unit/config/fuzz-yaml.test.ts); here the documents
  // go through commands that use what loaded (select, the step layout, the listings).
  it('cluster files: tsrun --test-only and tsinfo on drawn documents', async () => {
    const ctl = testController({ TSLURM_CTLD_IDLE_EXIT: '30' });
    controllers.push(ctl);
    const docs = drawArgvs(fc.oneof(clusterYaml, extremeNumberYaml).map((text) => [text]), Math.ceil(FUZZ_RUNS / 2), 99);
    const files = docs.map(([text], i) => {
      writeFileSync(path.join(ctl.workDir, `c${i}.yaml`), text!);
      return `c${i}.yaml`;
    });
    const run = { env: ctl.env, cwd: ctl.workDir };
    const failures = [
      ...(await fuzzRuns('tsrun', files.map((f) => ['--cluster', f, '--test-only', '-n2', 'true']), { expect: 'failure-or-success', run })),
      ...(await fuzzRuns('tsinfo', files.map((f) => ['--cluster', f, '-N']), { expect: 'failure-or-success', run })),
    ];
    expect(failures, report(failures)).toEqual([]);
  }, 300_000);
});

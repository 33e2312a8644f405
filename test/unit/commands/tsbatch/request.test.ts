import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FatalError } from '../../../../src/commands/tsbatch/fatal.js';
import { parseTsbatchArgs, type TsbatchContext } from '../../../../src/commands/tsbatch/request.js';
import { TimeSpecError } from '../../../../src/core/begin-time.js';
import { INFINITE } from '../../../../src/core/slurm-constants.js';
import { rejected } from '../../user-error.js';

// Expectations observed on Slurm 22.05 with sbatch --hold, then scontrol show job.
let dir: string;
const identity = { userId: 1000, groupId: 1000, userName: 'alice', submitHost: 'login1' };

function script(name: string, body: string, mode = 0o644): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
  chmodSync(file, mode);
  return file;
}

function parse(argv: string[], more: Partial<TsbatchContext> = {}) {
  return parseTsbatchArgs(argv, { env: { PATH: '/usr/bin:/bin' }, cwd: dir, identity, ...more });
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tsbatch-req-'));
});

describe('the script', () => {
  it('--wrap: the generated /bin/sh script, named wrap', async () => {
    const { desc } = await parse(['--wrap=echo hi']);
    expect(desc.script).toBe('#!/bin/sh\n# This script was created by sbatch --wrap.\n\necho hi\n');
    expect(desc).toMatchObject({ name: 'wrap', argv: [], workDir: dir, submitDir: dir, ...identity });
    expect(desc.command).toBeUndefined();
  });

  it('a file: named after it, with its arguments; Command= is where it was found', async () => {
    script('good.sh', '#!/bin/sh\necho hi\n');
    const { desc } = await parse(['good.sh', 'a', '-J', 'b']);
    expect(desc).toMatchObject({ name: 'good.sh', argv: ['a', '-J', 'b'], command: path.join(dir, 'good.sh') });
    // Command=./good.sh and ../sb/good.sh: a name starting with '.' or '/' is sent as given
    expect((await parse(['./good.sh'])).desc.command).toBe('./good.sh');
  });

  it('looks in the working directory, then along PATH (observed: even a file that is not executable)', async () => {
    script('bin/both.sh', '#!/bin/sh\necho path\n');
    script('cwd/both.sh', '#!/bin/sh\necho cwd\n', 0o600);
    const env = { PATH: `${dir}/bin:/usr/bin` };
    const fromCwd = await parseTsbatchArgs(['both.sh'], { env, cwd: path.join(dir, 'cwd'), identity });
    expect(fromCwd.desc).toMatchObject({ command: path.join(dir, 'cwd/both.sh'), script: '#!/bin/sh\necho cwd\n' });
    const fromPath = await parseTsbatchArgs(['both.sh'], { env, cwd: dir, identity });
    expect(fromPath.desc).toMatchObject({ command: path.join(dir, 'bin/both.sh'), script: '#!/bin/sh\necho path\n' });
  });

  it('looks in -D first; not found there, it reads the name from the current directory', async () => {
    script('sub/job.sh', '#!/bin/sh\necho sub\n');
    // cd / && sbatch -D /tmp/sb good.sh → Command=/tmp/sb/good.sh, WorkDir=/tmp/sb
    const inD = await parse(['-D', 'sub', 'job.sh']);
    expect(inD.desc).toMatchObject({ command: path.join(dir, 'sub/job.sh'), workDir: path.join(dir, 'sub') });
    // sbatch -D /tmp good.sh (in /tmp/sb) → Command=good.sh, WorkDir=/tmp
    script('here.sh', '#!/bin/sh\necho here\n');
    const notInD = await parse(['-D', '/nonexistent', 'here.sh']);
    expect(notInD.desc).toMatchObject({ command: 'here.sh', workDir: '/nonexistent', script: '#!/bin/sh\necho here\n' });
  });

  it('stdin: named sbatch', async () => {
    const { desc } = await parse([], { stdin: async () => '#!/bin/sh\n#SBATCH -p small\necho\n' });
    expect(desc).toMatchObject({ name: 'sbatch', partition: 'small', argv: [] });
    expect(desc.command).toBeUndefined();
    expect(await rejected(parse([], { stdin: async () => '#!/bin/sh\n#SBATCH -J "q\n' }))).toMatchObject({
      message: 'stdin: line 2: Unmatched `"` in [ "q]',
    });
  });

  it('refuses --wrap with a script, before looking for the file', async () => {
    expect(await rejected(parse(['--wrap=true', 'nosuch.sh']))).toMatchObject({
      message: 'Script arguments not permitted with --wrap option',
      exitCode: 1,
    });
  });

  it.each([
    ['empty.sh', '', 'Batch script is empty!'],
    ['ws.sh', ' \t\n \n', 'Batch script contains only whitespace!'],
    ['noshebang.sh', 'echo hi\n', 'This does not look like a batch script.  The first\nline must start with #! followed by the path to an interpreter.\nFor instance: #!/bin/sh'],
    ['blankfirst.sh', '\n#!/bin/sh\n', 'This does not look like a batch script.  The first\nline must start with #! followed by the path to an interpreter.\nFor instance: #!/bin/sh'],
    ['nul.sh', '#!/bin/sh\necho a\0b\n', "The Slurm controller does not allow scripts that\ncontain a NULL character '\\0'."],
    ['dosnul.sh', '#!/bin/sh\r\necho a\0b\n', "The Slurm controller does not allow scripts that\ncontain a NULL character '\\0'."],
    ['dos.sh', '#!/bin/sh\r\necho hi\r\n', 'Batch script contains DOS line breaks (\\r\\n)\ninstead of expected UNIX line breaks (\\n).'],
    ['dos2.sh', '#!/bin/sh\necho hi\r\n', 'Batch script contains DOS line breaks (\\r\\n)\ninstead of expected UNIX line breaks (\\n).'],
  ])('refuses %s', async (name, body, message) => {
    script(name, body);
    expect(await rejected(parse([name]))).toMatchObject({ message, exitCode: 1 });
  });

  it('accepts "#!" alone and a lone \\r (observed)', async () => {
    script('bang.sh', '#!');
    script('cr.sh', '#!/bin/sh\necho a\rb\n');
    await expect(parse(['bang.sh'])).resolves.toBeDefined();
    await expect(parse(['cr.sh'])).resolves.toBeDefined();
  });

  it('calls a missing file unopenable and says a directory is one (sbatch calls it empty)', async () => {
    expect(await rejected(parse(['nosuch.sh']))).toMatchObject({ message: 'Unable to open file nosuch.sh', exitCode: 1 });
    expect(await rejected(parse(['-']))).toMatchObject({ message: 'Unable to open file -' });
    mkdirSync(path.join(dir, 'adir'));
    expect(await rejected(parse(['adir']))).toMatchObject({ message: 'Unable to open file adir: Is a directory', exitCode: 1 });
  });
});

describe('where each option comes from', () => {
  it('command line over SBATCH_* over #SBATCH (observed with -J and -p)', async () => {
    script('prec.sh', '#!/bin/sh\n#SBATCH -J fromdirective\n#SBATCH -p small\n');
    expect((await parse(['prec.sh'])).desc).toMatchObject({ name: 'fromdirective', partition: 'small' });
    const env = { SBATCH_JOB_NAME: 'fromenv' };
    expect((await parse(['prec.sh'], { env })).desc).toMatchObject({ name: 'fromenv', partition: 'small' });
    expect((await parse(['-J', 'fromcli', 'prec.sh'], { env })).desc).toMatchObject({ name: 'fromcli' });
    expect((await parse(['-p', 'debug', '--wrap=x'], { env: { SBATCH_PARTITION: 'small' } })).desc.partition).toBe('debug');
  });

  it('keeps the last of --requeue and --no-requeue (observed: Requeue=0 / 1)', async () => {
    expect((await parse(['--requeue', '--no-requeue', '--wrap=x'])).desc.requeue).toBe(false);
    expect((await parse(['--no-requeue', '--requeue', '--wrap=x'])).desc.requeue).toBe(true);
    expect((await parse(['--wrap=x'])).desc.requeue).toBeUndefined();
    script('rq.sh', '#!/bin/sh\n#SBATCH --requeue\n');
    expect((await parse(['rq.sh'], { env: { SBATCH_NO_REQUEUE: '1' } })).desc.requeue).toBe(false);
    expect((await parse(['--requeue', '--wrap=x'], { env: { SBATCH_NO_REQUEUE: '' } })).desc.requeue).toBe(true);
  });

  it('treats the memory options as one choice, the script counting as command line', async () => {
    script('memd.sh', '#!/bin/sh\n#SBATCH --mem=100\n');
    script('memc.sh', '#!/bin/sh\n#SBATCH --mem-per-cpu=10\n');
    script('memdd.sh', '#!/bin/sh\n#SBATCH --mem=100\n#SBATCH --mem-per-cpu=10\n');
    const both = '--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.';
    for (const argv of [['--mem=1', '--mem-per-cpu=1', '--wrap=x'], ['--mem-per-cpu=10', 'memd.sh'], ['memdd.sh']]) {
      const error = await rejected(parse(argv));
      expect(error).toBeInstanceOf(FatalError);
      expect(error).toMatchObject({ message: both, exitCode: 1 });
    }
    const env2 = { SBATCH_MEM_PER_CPU: '10', SBATCH_MEM_PER_NODE: '100' };
    expect(await rejected(parse(['--wrap=x'], { env: env2 }))).toMatchObject({
      message: 'SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually exclusive.',
    });
    // SBATCH_MEM_PER_NODE=100 with #SBATCH --mem-per-cpu=10 → MinMemoryCPU=10M only
    const c = (await parse(['memc.sh'], { env: { SBATCH_MEM_PER_NODE: '100' } })).desc;
    expect([c.memPerNode, c.memPerCpu]).toEqual([undefined, 10]);
    // SBATCH_MEM_PER_CPU=10 with #SBATCH --mem=100 → MinMemoryNode=100M only
    const d = (await parse(['memd.sh'], { env: { SBATCH_MEM_PER_CPU: '10' } })).desc;
    expect([d.memPerNode, d.memPerCpu]).toEqual([100, undefined]);
    // --mem=100 --mem=200 → 200M; SBATCH_MEM_PER_CPU=10 --mem=5 → MinMemoryNode=5M
    expect((await parse(['--mem=100', '--mem=200', '--wrap=x'])).desc.memPerNode).toBe(200);
    const e = (await parse(['--mem=5', '--wrap=x'], { env: { SBATCH_MEM_PER_CPU: '10' } })).desc;
    expect([e.memPerNode, e.memPerCpu]).toEqual([5, undefined]);
  });

  it('adds up -v from the command line and the script', async () => {
    script('v.sh', '#!/bin/sh\n#SBATCH -v\n');
    expect((await parse(['-vv', 'v.sh'])).verbose).toBe(3);
  });

  it('takes --parsable, --wait, --test-only and --quiet from any source', async () => {
    script('flags.sh', '#!/bin/sh\n#SBATCH --parsable\n#SBATCH --test-only\n');
    const parsed = await parse(['-Q', 'flags.sh'], { env: { SBATCH_WAIT: 'yes' } });
    expect(parsed).toMatchObject({ parsable: true, wait: true, testOnly: true, quiet: true, cluster: undefined });
    expect((await parse(['--cluster', 'c.yaml', '--wrap=x'])).cluster).toBe('c.yaml');
  });
});

describe('the job descriptor', () => {
  it('has Slurm\'s defaults', async () => {
    const { desc } = await parse(['--wrap=x'], { env: { PATH: '/bin', SLURM_X: '1' } });
    expect(desc).toMatchObject({
      partition: undefined,
      ntasks: undefined,
      minNodes: undefined,
      maxNodes: undefined,
      timeLimit: INFINITE,
      exclusive: false,
      overcommit: false,
      contiguous: false,
      hold: false,
      beginTime: 0,
      array: undefined,
      dependency: undefined,
      environment: ['PATH=/bin', 'SLURM_X=1'],
      exportText: undefined,
      output: undefined,
      error: undefined,
      input: undefined,
    });
  });

  it('reads the resource options', async () => {
    const argv = ['-n', '4', '-N', '2', '-c', '2', '--ntasks-per-node=2', '--mem=1G', '-w', 'node[1-2]', '-x', 'node3', '-C', 'a&b'];
    const more = ['--gres=gpu:1', '-G', '2', '-O', '--contiguous', '-t', '1:30', '-H', '--comment=hi', '--open-mode=a'];
    const { desc } = await parse([...argv, ...more, '--kill-on-invalid-dep=YES', '--wrap=x']);
    expect(desc).toMatchObject({
      ntasks: 4,
      minNodes: 2,
      maxNodes: 2, // NumNodes=2-2
      cpusPerTask: 2,
      ntasksPerNode: 2,
      memPerNode: 1024,
      nodelist: 'node[1-2]',
      exclude: 'node3',
      constraint: 'a&b',
      gres: 'gpu:1',
      gpus: '2',
      overcommit: true,
      contiguous: true,
      timeLimit: 2,
      hold: true,
      comment: 'hi',
      openMode: 'append',
      killOnInvalidDep: true,
    });
  });

  it('reads -N ranges: a max of 0 is none (observed: -N 5-0 is NumNodes=5)', async () => {
    expect((await parse(['-N', '3-5', '--wrap=x'])).desc).toMatchObject({ minNodes: 3, maxNodes: 5 });
    expect((await parse(['-N', '5-0', '--wrap=x'])).desc).toMatchObject({ minNodes: 5, maxNodes: undefined });
    expect((await parse(['-N', '0', '--wrap=x'])).desc).toMatchObject({ minNodes: 0, maxNodes: undefined });
  });

  it('reads --exclusive and its modes (observed: OverSubscribe=NO, USER, MCS, YES)', async () => {
    expect((await parse(['--exclusive', '--wrap=x'])).desc).toMatchObject({ exclusive: true });
    expect((await parse(['--exclusive=exclusive', '--wrap=x'])).desc).toMatchObject({ exclusive: true });
    expect((await parse(['--exclusive=user', '--wrap=x'])).desc).toMatchObject({ exclusive: false, exclusiveMode: 'user' });
    expect((await parse(['--exclusive=MCS', '--wrap=x'])).desc).toMatchObject({ exclusiveMode: 'mcs' });
    expect((await parse(['--exclusive=oversubscribe', '--wrap=x'])).desc).toMatchObject({ exclusiveMode: 'oversubscribe' });
    expect((await parse(['--wrap=x'], { env: { SBATCH_EXCLUSIVE: '' } })).desc.exclusive).toBe(true);
  });

  it('makes --time 0 unlimited and reads --open-mode by its first letter', async () => {
    expect((await parse(['-t', '0', '--wrap=x'])).desc.timeLimit).toBe(INFINITE);
    expect((await parse(['--open-mode=TRUNC', '--wrap=x'])).desc.openMode).toBe('truncate');
    expect((await parse(['--open-mode=axyz', '--wrap=x'])).desc.openMode).toBe('append');
  });

  it('reads --begin in the local clock', async () => {
    const now = new Date('2026-11-22T02:41:05Z');
    const { desc } = await parse(['--begin=now+1hour', '--wrap=x'], { now });
    expect(desc.beginTime).toBe(now.getTime() / 1000 + 3600);
  });

  it('reads --array and --dependency; empty ones ask for nothing', async () => {
    const { desc } = await parse(['--array=0-3%2', '-d', 'afterok:12?afterany:13', '--wrap=x']);
    expect(desc.array).toEqual({ taskIds: [0, 1, 2, 3], maxRunning: 2, text: '0-3%2' });
    expect(desc.dependency).toMatchObject({ combine: 'any', text: 'afterok:12?afterany:13' });
    const none = (await parse(['--array=,', '--dependency=0', '--wrap=x'])).desc;
    expect([none.array, none.dependency]).toEqual([undefined, undefined]);
    expect((await parse(['--wrap=x'], { env: { SBATCH_ARRAY_INX: '1-3' } })).desc.array?.taskIds).toEqual([1, 2, 3]);
  });

  it('builds the environment from --export, keeping the text', async () => {
    const env = { FOO: 'caller', HOME: '/root', SLURM_MINE: 'm' };
    const { desc } = await parse(['--export=FOO,BAR=b', '--wrap=x'], { env });
    expect(desc.environment.sort()).toEqual(['BAR=b', 'FOO=caller', 'SLURM_MINE=m']);
    expect(desc.exportText).toBe('FOO,BAR=b');
  });
});

describe('what is refused, and in which order (observed)', () => {
  it.each([
    [['-n', 'abc', '--wrap=x'], 'Invalid numeric value "abc" for --ntasks.', 1],
    [['-c', '0', '--wrap=x'], 'Invalid numeric value "0" for --cpus-per-task.', 1],
    [['--ntasks-per-node=x', '--wrap=x'], 'Invalid numeric value "x" for --ntasks-per-node.', 1],
    [['-N', 'abc', '--wrap=x'], '"abc" is not a valid node count', 255],
    [['-N', '2-1', '--wrap=x'], 'Maximum node count 1 is less than minimum node count 2', 255],
    [['--mem=abc', '--wrap=x'], 'Invalid --mem specification', 255],
    [['--mem-per-cpu=x', '--wrap=x'], 'Invalid --mem-per-cpu specification', 255],
    [['-t', 'abc', '--wrap=x'], 'Invalid --time specification', 255],
    [['--open-mode=foo', '--wrap=x'], 'Invalid --open-mode specification', 255],
    [['--open-mode=', '--wrap=x'], 'Invalid --open-mode specification', 255],
    [['--kill-on-invalid-dep=maybe', '--wrap=x'], 'Invalid --kill-on-invalid-dep specification', 255],
    [['--kill-on-invalid-dep=y', '--wrap=x'], 'Invalid --kill-on-invalid-dep specification', 255],
    // getopt takes "--wrap=true" as the value: sbatch said the same
    [['--kill-on-invalid-dep', '--wrap=x'], 'Invalid --kill-on-invalid-dep specification', 255],
    [['--exclusive=foo', '--wrap=x'], 'Invalid --exclusive specification', 255],
    [['--begin=', '--wrap=x'], 'Invalid --begin specification', 255],
    [['--array=x', '--wrap=x'], 'Batch job submission failed: Invalid job array specification', 1],
    [['--dependency=foo', '--wrap=x'], 'Batch job submission failed: Job dependency problem', 1],
    [['--dependency=expand:1', '--wrap=x'], 'Batch job submission failed: Requested operation not supported on this system', 1],
  ])('%j: %s', async (argv, message, exitCode) => {
    expect(await rejected(parse(argv))).toMatchObject({ message, exitCode });
  });

  it('keeps parse_time()\'s line as the cause of a bad --begin', async () => {
    const error = await rejected(parse(['--begin=garbage', '--wrap=x']));
    expect(error).toMatchObject({ message: 'Invalid --begin specification', exitCode: 255 });
    expect(error.cause).toBeInstanceOf(TimeSpecError);
    expect((error.cause as Error).message).toBe('Invalid time specification (pos=0): garbage');
  });

  it('refuses bad values from the environment, naming the option', async () => {
    expect(await rejected(parse(['--wrap=x'], { env: { SBATCH_TIMELIMIT: 'abc' } }))).toMatchObject({
      message: 'Invalid --time specification',
    });
    expect(await rejected(parse(['--wrap=x'], { env: { SBATCH_EXCLUSIVE: '1' } }))).toMatchObject({
      message: 'Invalid --exclusive specification',
    });
    expect(await rejected(parse(['--wrap=x'], { env: { SBATCH_ARRAY_INX: 'x' } }))).toMatchObject({
      message: 'Batch job submission failed: Invalid job array specification',
    });
  });

  // Slurm's words, after the script and line they come from (sbatch names neither).
  it('refuses words that are not options in #SBATCH lines, naming the line', async () => {
    script('d9.sh', '#!/bin/sh\n#SBATCHfoo\n');
    script('d15.sh', '#!/bin/sh\n#SBATCH -J\n');
    script('d16.sh', '#!/bin/sh\n#SBATCH --bogus\n');
    expect(await rejected(parse(['d9.sh']))).toMatchObject({ message: 'Invalid directive found in batch script: foo', exitCode: 255 });
    expect(await rejected(parse(['d15.sh']))).toMatchObject({ message: "d15.sh: line 2: option requires an argument -- 'J'", exitCode: 255 });
    expect(await rejected(parse(['d16.sh']))).toMatchObject({ message: "d16.sh: line 2: unrecognized option '--bogus'", exitCode: 255 });
  });

  it('reads the command line first, then the script, its #SBATCH lines, the environment', async () => {
    script('c0.sh', '#!/bin/sh\n#SBATCH -c 0\n');
    const badTime = { env: { SBATCH_TIMELIMIT: 'abc' } };
    // sbatch -n abc nosuch.sh → the -n error
    expect((await rejected(parse(['-n', 'abc', 'nosuch.sh']))).message).toBe('Invalid numeric value "abc" for --ntasks.');
    // in argv order: --begin=garbage -n abc → the --begin error
    expect((await rejected(parse(['--begin=garbage', '-n', 'abc', '--wrap=x']))).message).toBe('Invalid --begin specification');
    // SBATCH_TIMELIMIT=abc sbatch nosuch.sh → Unable to open file nosuch.sh
    expect((await rejected(parse(['nosuch.sh'], badTime))).message).toBe('Unable to open file nosuch.sh');
    // SBATCH_TIMELIMIT=abc sbatch c0.sh → the -c error from the script
    expect((await rejected(parse(['c0.sh'], badTime))).message).toBe('c0.sh: line 2: Invalid numeric value "0" for --cpus-per-task.');
    // SBATCH_TIMELIMIT=abc sbatch -n abc --wrap=true → the -n error
    expect((await rejected(parse(['-n', 'abc', '--wrap=x'], badTime))).message).toBe('Invalid numeric value "abc" for --ntasks.');
    // --mem=1 --mem-per-cpu=1 -n abc → the -n error; --array=x --dependency=foo → the array's
    expect((await rejected(parse(['--mem=1', '--mem-per-cpu=1', '-n', 'abc', '--wrap=x']))).message).toContain('--ntasks');
    expect((await rejected(parse(['--array=x', '--dependency=foo', '--wrap=x']))).message).toContain('array');
  });
});

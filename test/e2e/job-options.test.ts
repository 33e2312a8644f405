// srun's and sbatch's whole option set through the drop-in names and the ts names: a
// realistic #SBATCH header is accepted and recorded (scontrol show job), --help/--usage and
// option errors read as Slurm 22.05's (observed on the real commands, /work/ref/*.txt).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, runBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const ctl = testController({ TSLURM_CONF: fixture('clusters', 'gpu.yaml') });
const bin = path.join(ctl.workDir, 'slurm-bin');
const slurm = (name: string, args: string[], input = '') =>
  execa(path.join(bin, name), args, { cwd: ctl.workDir, reject: false, input, timeout: 60_000, env: { ...ctl.env, NO_COLOR: '1' } }).then(
    (r) => ({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }),
  );

beforeAll(async () => {
  expect((await runBin('tslurm-dropin', [bin])).exitCode).toBe(0);
});
afterAll(() => ctl.stop());

const header = `#!/bin/bash
#SBATCH --account=proj1
#SBATCH --qos=normal
#SBATCH --mail-type=END,FAIL
#SBATCH --mail-user=me@example.com
#SBATCH --signal=B:USR1@30
#SBATCH --nice=10
#SBATCH --hint=nomultithread
#SBATCH --time=10
#SBATCH --time-min=5
#SBATCH --distribution=cyclic
#SBATCH --comment="a comment"
#SBATCH --wckey=wk
#SBATCH --mincpus=1
#SBATCH --tmp=0
#SBATCH --reboot
#SBATCH --open-mode=append
#SBATCH -p gpu
#SBATCH --gpus-per-node=1
#SBATCH --gpus-per-task=1
#SBATCH --mem-per-gpu=100
#SBATCH --cpus-per-gpu=1
#SBATCH -H
true
`;

describe('a realistic #SBATCH header', () => {
  it.each(['sbatch', 'tsbatch'])('is accepted by %s and recorded on the job', async (name) => {
    writeFileSync(path.join(ctl.workDir, `${name}.sh`), header);
    const submitted = name === 'sbatch' ? await slurm('sbatch', ['--parsable', `${name}.sh`]) : await ctl.run('tsbatch', ['--parsable', `${name}.sh`]);
    expect(submitted.stderr).toBe('');
    expect(submitted.exitCode).toBe(0);
    const id = submitted.stdout.trim();
    const shown = (await ctl.run('tscontrol', ['show', 'job', id])).stdout;
    // Slurm 22.05's fields (observed with the same header on the real sbatch).
    expect(shown).toContain('   Priority=0 Nice=10 Account=proj1 QOS=normal\n');
    expect(shown).toContain(' BatchFlag=1 Reboot=1 ExitCode=0:0\n');
    expect(shown).toContain(' TimeLimit=00:10:00 TimeMin=00:05:00\n');
    expect(shown).toContain('   MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0\n');
    expect(shown).toContain('   Comment=a comment \n');
    expect(shown).toContain(
      '   Power=\n   CpusPerTres=gres:gpu:1\n   MemPerTres=gres:gpu:100\n   TresPerNode=gres:gpu:1\n   TresPerTask=gres:gpu:1\n   MailUser=me@example.com MailType=END,FAIL\n',
    );
    await ctl.run('tscancel', [id]);
  });

  it('says under -v which recorded options tslurm does not act on, once each', async () => {
    const r = await ctl.run('tsbatch', ['-v', '-H', '--mail-type=END', '--mail-user=a@b', '-A', 'acc', '--parsable', '--wrap=true']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      [
        'tsbatch: defined options',
        'tsbatch: -------------------- --------------------',
        'tsbatch: account             : acc',
        'tsbatch: hold                : set',
        'tsbatch: mail-type           : END',
        'tsbatch: mail-user           : a@b',
        'tsbatch: parsable            : set',
        'tsbatch: verbose             : 1',
        'tsbatch: wrap                : true',
        'tsbatch: -------------------- --------------------',
        'tsbatch: end of defined options',
        'tsbatch: --mail-type: tslurm sends no mail',
        'tsbatch: --account: tslurm has no accounting associations; the account is recorded only',
        '',
      ].join('\n'),
    );
    await ctl.run('tscancel', [r.stdout.trim()]);
  });
});

describe('--usage and --help under the Slurm names', () => {
  it.each(['srun', 'sbatch', 'salloc', 'squeue', 'sinfo', 'sbcast'])('%s --usage prints its usage block', async (name) => {
    expect(await slurm(name, ['--usage'])).toEqual({ exitCode: 0, stdout: readFileSync(fixture('slurm-22.05', `${name}-usage.txt`), 'utf8').trimEnd(), stderr: '' });
  });

  it('srun --help has the Usage: line, the synopses and the sections', async () => {
    const { exitCode, stdout } = await slurm('srun', ['--help']);
    expect(exitCode).toBe(0);
    expect(stdout.split('\n')[0]).toBe('Usage: srun [OPTIONS(0)... [executable(0) [args(0)...]]] [ : [OPTIONS(N)...]] executable(N) [args(N)...]');
    for (const synopsis of ['  -N, --nodes=N ', '  -q, --qos=qos ', '      --mincpus=n ', '  -G, --gpus=n ', '  -I, --immediate[=secs] ', '      --nice[=value] ', '  -A, --account=name ']) {
      expect(stdout).toContain(synopsis);
    }
    for (const section of ['Parallel run options:', 'Constraint options:', 'GPU scheduling options:', 'Help options:', 'Other options:']) expect(stdout).toContain(`\n${section}\n`);
    expect(stdout).toContain('\nHelp options:\n  -h, --help ');
    expect(stdout).not.toContain('--cpu_bind');
  });

  it('sbatch --help starts with its Usage: line', async () => {
    const { stdout } = await slurm('sbatch', ['--help']);
    expect(stdout.split('\n')[0]).toBe('Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] script(0) [args(0)...]');
    expect(stdout).toContain('  -a, --array=indexes ');
  });

  it('salloc --help has its Usage: line, its own options and not srun\'s', async () => {
    const { exitCode, stdout } = await slurm('salloc', ['--help']);
    expect(exitCode).toBe(0);
    expect(stdout.split('\n')[0]).toBe('Usage: salloc [OPTIONS(0)...] [ : [OPTIONS(N)]] [command(0) [args(0)...]]');
    for (const synopsis of ['      --bell ', '      --no-bell ', '  -K, --kill-command[=signal] ', '      --no-shell ', '  -I, --immediate[=secs] ', '      --container ']) {
      expect(stdout).toContain(synopsis);
    }
    for (const srunOnly of ['--label', '--output', '--kill-on-bad-exit', '--cluster=file']) expect(stdout).not.toContain(srunOnly);
  });

  it.each([
    ['squeue', 'Usage: squeue [OPTIONS]', '  -p, --partitions=partition(s)   '],
    ['sinfo', 'Usage: sinfo [OPTIONS]', '  -N, --Node                 '],
    ['scancel', 'Usage: scancel [OPTIONS] [job_id[_array_id][.step_id]]', '  -s, --signal=name | integer     '],
    ['sbcast', 'Usage: sbcast [OPTIONS] SOURCE DEST', '  -C, --compress[=lib]  '],
  ])('%s --help: its Usage: line and its options in synopsis form, no tslurm option', async (name, usageLine, synopsis) => {
    const { exitCode, stdout } = await slurm(name, ['--help']);
    expect(exitCode).toBe(0);
    expect(stdout.split('\n')[0]).toBe(usageLine);
    expect(stdout).toContain(`\n${synopsis}`);
    expect(stdout).toContain('\nHelp options:\n');
    expect(stdout).not.toContain('--cluster');
    expect(stdout).not.toContain('Examples:');
  });

  it('the ts names keep their own usage line and examples', async () => {
    const { stdout } = await ctl.run('tsrun', ['--help']);
    expect(stdout.split('\n')[0]).toBe('Usage: tsrun [options] command [args...]');
    expect(stdout).toContain('      --cluster=file ');
    expect(stdout).toMatch(/Examples:\n {2}\$ tsrun -N2 -n4 -l hostname/);
  });
});

describe('option errors as Slurm prints them', () => {
  const tryHelp = (name: string) => `Try "${name} --help" for more information`;
  it.each([
    ['srun', ['--bogus'], 255, "srun: unrecognized option '--bogus'"],
    ['srun', ['-y'], 255, "srun: invalid option -- 'y'"],
    ['srun', ['--nodes'], 255, "srun: option '--nodes' requires an argument"],
    ['srun', ['--hel=1'], 255, "srun: option '--help' doesn't allow an argument"],
    ['srun', ['--exact=1', 'true'], 255, "srun: option '--exact' doesn't allow an argument"],
    ['srun', ['--ex', 'true'], 255, "srun: option '--ex' is ambiguous; possibilities: '--exact' '--exclude' '--exclusive' '--export' '--extra-node-info'"],
    ['sbatch', ['--bogus'], 255, "sbatch: unrecognized option '--bogus'"],
    ['salloc', ['--bogus'], 255, "salloc: unrecognized option '--bogus'"],
    ['salloc', ['-y'], 255, "salloc: invalid option -- 'y'"],
    ['salloc', ['-l'], 255, "salloc: invalid option -- 'l'"],
    ['salloc', ['--nodes'], 255, "salloc: option '--nodes' requires an argument"],
    ['salloc', ['--hel=1'], 255, "salloc: option '--help' doesn't allow an argument"],
    ['salloc', ['--output=x'], 255, "salloc: unrecognized option '--output=x'"],
    ['squeue', ['--bogus'], 1, "squeue: unrecognized option '--bogus'"],
    ['sinfo', ['-y'], 1, "sinfo: invalid option -- 'y'"],
    ['scancel', ['--bogus'], 1, "scancel: unrecognized option '--bogus'"],
    ['scontrol', ['--bogus'], 1, "scontrol: unrecognized option '--bogus'"],
    ['squeue', ['--us', 'x'], 1, "squeue: option '--us' is ambiguous; possibilities: '--usage' '--user' '--users'"],
    ['sinfo', ['--nodes'], 1, "sinfo: option '--nodes' requires an argument"],
    ['scancel', ['--batch=1'], 1, "scancel: option '--batch' doesn't allow an argument"],
  ])('%s %j', async (name, args, exitCode, line) => {
    expect(await slurm(name, args)).toEqual({ exitCode, stdout: '', stderr: `${line}\n${tryHelp(name)}` });
  });

  it('adds a "did you mean" line under the ts names', async () => {
    expect(await ctl.run('tsrun', ['--nodez=2', 'true'])).toEqual({
      exitCode: 255,
      stdout: '',
      stderr: "tsrun: unrecognized option '--nodez=2'\ntsrun: did you mean '--nodes'?\nTry \"tsrun --help\" for more information\n",
    });
  });

  // Observed on srun 22.05 (/work/ref/srun-option-values.txt, option-errors.txt).
  it.each([
    [['--mail-type=foo', 'true'], 255, 'srun: error: Invalid --mail-type specification'],
    [['--signal=B:USR1@60', 'true'], 255, 'srun: error: Invalid --signal specification'],
    [['--signal=0', 'true'], 255, 'srun: error: Invalid --signal specification'],
    [['--signal=SIGUSR1@70000', 'true'], 255, 'srun: error: Invalid --signal specification'],
    [['--hint=foo', 'true'], 1, 'srun: error: unrecognized --hint argument "foo", see --hint=help'],
    [['--cpu-bind=foo', 'true'], 1, 'srun: error: unrecognized --cpu-bind argument "foo"\nsrun: fatal: Failed to parse --cpu-bind= values.'],
    [['--propagate=FOO', 'true'], 1, 'srun: error: Bad rlimit name: FOO\nsrun: error: --propagate=FOO is not valid.'],
    [['--time-min=abc', 'true'], 255, 'srun: error: Invalid --time-min specification'],
    [['--tmp=abc', 'true'], 255, 'srun: error: Invalid --tmp specification'],
    [['--mincpus=abc', 'true'], 1, 'srun: error: Invalid numeric value "abc" for --mincpus.'],
    [['--mincpus=0', 'true'], 1, 'srun: error: Invalid numeric value "0" for --mincpus.'],
    [['-W', 'abc', 'true'], 1, 'srun: error: Invalid numeric value "abc" for --wait.'],
    [['--immediate=abc', 'true'], 1, 'srun: error: Invalid numeric value "abc" for immediate.'],
    [['--jobid=abc', 'true'], 1, 'srun: error: Invalid numeric value "abc" for --jobid.'],
    [['--cpus-per-gpu=0', 'true'], 1, 'srun: error: Invalid numeric value "0" for --cpus-per-gpu.'],
    [['--mem-per-gpu=abc', 'true'], 255, 'srun: error: Invalid --mem-per-gpu specification'],
    [['--gpus-per-node=abc', 'true'], 1, 'srun: error: Invalid generic resource (gres) specification'],
    [['--nice=-2147483646', 'true'], 255, 'srun: error: Invalid --nice value, out of range (+/- 2147483645)'],
    [['--exclusive=bogus', 'true'], 255, 'srun: error: Invalid --exclusive specification'],
    [['--open-mode=x', 'true'], 255, 'srun: error: Invalid --open-mode specification'],
    [[], 1, 'srun: fatal: No command given to execute.'],
    [['-Z', 'true'], 1, 'srun: error: must specify a node list with -Z, --no-allocate.'],
    [['--het-group=abc', 'true'], 1, "srun: error: _parse_single_range: Invalid range: `abc'\nsrun: error: Invalid --het-group value: abc"],
    // In a job of one component, as every tslurm job is (observed inside an sbatch job).
    [['--het-group=1', 'true'], 1, 'srun: error: Requested het-group offset exceeds highest hetjob index (1 > 0)'],
    [['--het-group=0', 'true'], 1, 'srun: error: No directives to start application on any available hetjob components'],
  ])('srun %j', async (args, exitCode, stderr) => {
    expect(await slurm('srun', args)).toEqual({ exitCode, stdout: '', stderr });
  });

  it('srun -v prints the defined options before it runs anything', async () => {
    const r = await slurm('srun', ['-v', '-n1', '-l', '-t', '5', '-A', 'acc', '--exact', '--qos=normal', '--mpi=list']);
    expect(r.stderr.split('\n').slice(0, 12).join('\n')).toBe(
      [
        'srun: defined options',
        'srun: -------------------- --------------------',
        'srun: account             : acc',
        'srun: exact               : set',
        'srun: label               : set',
        'srun: mpi                 : list',
        'srun: ntasks              : 1',
        'srun: qos                 : normal',
        'srun: time                : 00:05:00',
        'srun: verbose             : 1',
        'srun: -------------------- --------------------',
        'srun: end of defined options',
      ].join('\n'),
    );
  });
});

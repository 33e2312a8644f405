// The option front of squeue, sinfo, scancel, sbcast, scontrol and the daemons: getopt over
// each command's table (abbreviations, permuted operands, counting flags, optional arguments
// attached only), getopt's two lines with exit 1, and --help in both names' forms.
import { describe, expect, it } from 'vitest';
import { commandInfo, parseArgs } from '../../../../src/cli/slurm-opt/command-cli.js';
import { UserError } from '../../../../src/core/errors.js';
import { TSCONTROL_OPTIONS } from '../../../../src/commands/tscontrol/options.js';
import { TSQUEUE_OPTIONS } from '../../../../src/commands/tsqueue/options.js';
import { TSBCAST_OPTIONS } from '../../../../src/commands/tsbcast/options.js';

function refusal(run: () => unknown): { message: string; exitCode: number } {
  try {
    run();
  } catch (error) {
    if (error instanceof UserError) return { message: error.message, exitCode: error.exitCode };
    throw error;
  }
  throw new Error('not refused');
}

describe('parseArgs', () => {
  it('takes options before and after the operands, abbreviated, and counts -d', () => {
    const parsed = parseArgs('tscontrol', ['-d', 'show', '--one', 'job', '-dd', '12'], TSCONTROL_OPTIONS);
    expect(parsed.operands).toEqual(['show', 'job', '12']);
    expect(parsed.raw).toMatchObject({ details: 3, oneliner: true });
  });

  it("reads squeue's -h as --noheader and -j's argument only when attached", () => {
    expect(parseArgs('tsqueue', ['-h', '-j', '5'], TSQUEUE_OPTIONS)).toMatchObject({ raw: { noheader: true, jobs: true }, operands: ['5'], info: undefined });
    expect(parseArgs('tsqueue', ['-j5,6', '--use', 'root'], TSQUEUE_OPTIONS).raw).toMatchObject({ jobs: '5,6', user: 'root' });
    expect(parseArgs('tsqueue', ['--help'], TSQUEUE_OPTIONS).info).toBe('help');
  });

  it("leaves sbcast's -C argument to be attached: the next word is the source", () => {
    expect(parseArgs('tsbcast', ['-C', 'a', 'b'], TSBCAST_OPTIONS)).toMatchObject({ raw: { compress: true }, operands: ['a', 'b'] });
  });

  it("refuses in getopt's two lines, exit 1, with a hint under the ts names only", () => {
    expect(refusal(() => parseArgs('squeue', ['--bogus'], TSQUEUE_OPTIONS))).toEqual({
      message: "squeue: unrecognized option '--bogus'\nTry \"squeue --help\" for more information",
      exitCode: 1,
    });
    expect(refusal(() => parseArgs('tscontrol', ['--detals'], TSCONTROL_OPTIONS)).message).toBe(
      "tscontrol: unrecognized option '--detals'\ntscontrol: did you mean '--details'?\nTry \"tscontrol --help\" for more information",
    );
    expect(refusal(() => parseArgs('squeue', ['--no'], TSQUEUE_OPTIONS)).message).toMatch(/^squeue: option '--no' is ambiguous; possibilities: '--noconvert' '--node' /);
    expect(refusal(() => parseArgs('squeue', ['-x'], TSQUEUE_OPTIONS)).message).toBe("squeue: invalid option -- 'x'\nTry \"squeue --help\" for more information");
  });
});

describe('commandInfo', () => {
  const texts = { summary: 'Show the job queue (like squeue).', synopsis: '[OPTIONS]', examples: ['tsqueue -l'], descriptionColumn: 34 };

  it("prints the Slurm name's usage line and synopses, without tslurm's --cluster or examples", () => {
    const help = commandInfo('help', 'squeue', TSQUEUE_OPTIONS, texts);
    expect(help.split('\n')[0]).toBe('Usage: squeue [OPTIONS]');
    expect(help).toContain('\n  -A, --account=account(s)        only jobs');
    expect(help).toContain('\n  -j, --jobs[=job(s)] ');
    expect(help).toContain('\nHelp options:\n      --help ');
    expect(help).not.toContain('--cluster');
    expect(help).not.toContain('Examples:');
    expect(help).not.toContain('--users');
  });

  it('prints what the command is, --cluster and the examples under the ts name', () => {
    const help = commandInfo('help', 'tsqueue', TSQUEUE_OPTIONS, texts);
    expect(help.startsWith('Usage: tsqueue [OPTIONS]\n\nShow the job queue (like squeue).\n\n')).toBe(true);
    expect(help).toContain('\ntslurm options:\n      --cluster=file ');
    expect(help).toMatch(/\nExamples:\n {2}\$ tsqueue -l\n$/);
  });
});

// Commander set up the same way for every command: its own errors and --help/--version go
// through the CLI boundary (run-cli.ts) instead of printing and exiting on their own.
import { Command } from 'commander';
import { versionLine } from './version-line.js';

export { versionLine };

export function createProgram(bin: string, summary: string, examples: readonly string[] = []): Command {
  const program = new Command(bin)
    .description(summary)
    .version(versionLine(bin), '-V, --version', 'print version information and exit')
    .helpOption('-h, --help', 'show this help and exit')
    .exitOverride()
    .configureOutput({
      // Parse errors are printed by the boundary as `<bin>: error: ...`; help goes to stdout as usual.
      outputError: () => {},
    })
    .showSuggestionAfterError(true);
  if (examples.length > 0) {
    program.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  }
  return program;
}

/** Options every command takes: the cluster file and -v. */
export function addCommonOptions(program: Command): Command {
  return program
    .option('--cluster <file>', 'cluster YAML to use (default: $TSLURM_CONF, else the built-in cluster)')
    .option('-v, --verbose', 'more messages; repeat for more (-vvv shows stack traces)', (_v: string, prev: number) => prev + 1, 0);
}

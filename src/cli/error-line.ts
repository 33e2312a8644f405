// The one form of a command's error line, Slurm's error() and fatal(): `<bin>: error: <text>`,
// or `<bin>: fatal: ...` for a text that starts with "fatal: ". The CLI boundary prints what a
// command throws with it; a command that reports a problem and goes on (squeue's unknown
// fields, sbcast's failed nodes) prints with it too.

export function errorLine(bin: string, text: string): string {
  return text.startsWith('fatal: ') ? `${bin}: ${text}\n` : `${bin}: error: ${text}\n`;
}

/** Prints one error line on stderr, for a problem the command reports and goes on after. */
export function printError(bin: string, text: string): void {
  process.stderr.write(errorLine(bin, text));
}

// Where tsbatch's script comes from (a file, --wrap, or stdin) and sbatch's checks on it, with
// sbatch 22.05's messages, each observed; all exit 1.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../core/errors.js';

export interface BatchScript {
  text: string;
  /** The name in directive errors: the file as given, or "stdin". */
  file: string;
  /** The job's default name: the file's base name, "wrap", or "sbatch" for stdin. */
  defaultName: string;
  /** scontrol's Command=; undefined for --wrap and stdin. */
  command: string | undefined;
}

/** The script sbatch --wrap=CMD submits (observed with `scontrol write batch_script`). */
export function wrapScript(command: string): BatchScript {
  const text = `#!/bin/sh\n# This script was created by sbatch --wrap.\n\n${command}\n`;
  return { text, file: 'wrap', defaultName: 'wrap', command: undefined };
}

export async function stdinScript(read: () => Promise<string>): Promise<BatchScript> {
  return checked({ text: await read(), file: 'stdin', defaultName: 'sbatch', command: undefined });
}

/**
 * A script named on the command line. Like sbatch (search_path), a name without a leading
 * '.' or '/' is looked for in the working directory (-D) and then along PATH, and sent as
 * that full path; otherwise, or when not found there, it is read as given.
 */
export async function fileScript(name: string, ctx: { cwd: string; workDir: string; path: string | undefined }): Promise<BatchScript> {
  const found = /^[./]/.test(name) ? undefined : await searchPath(name, ctx.workDir, ctx.path);
  let text: string;
  try {
    text = await readFile(path.resolve(ctx.cwd, found ?? name), 'utf8');
  } catch (error) {
    // A directory reads as nothing in C, so sbatch 22.05 says "Batch script is empty!"; we
    // say what it is instead.
    const why = (error as NodeJS.ErrnoException).code === 'EISDIR' ? ': Is a directory' : '';
    throw new UserError(`Unable to open file ${name}${why}`);
  }
  return checked({ text, file: name, defaultName: path.basename(name), command: found ?? name });
}

// search_path(): the working directory first, then each PATH entry (a relative entry is
// taken from the working directory); the first regular file of that name wins.
async function searchPath(name: string, workDir: string, pathVar: string | undefined): Promise<string | undefined> {
  const dirs = [workDir, ...(pathVar ?? '').split(':').filter((dir) => dir !== '')];
  for (const dir of dirs) {
    const candidate = path.resolve(workDir, dir, name);
    if (await isFile(candidate)) return candidate;
  }
  return undefined;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

// sbatch's checks, in its order (observed: a script with a NUL and DOS line breaks gets the
// NUL message).
function checked(script: BatchScript): BatchScript {
  const { text } = script;
  if (text === '') throw new UserError('Batch script is empty!');
  if (/^\s*$/.test(text)) throw new UserError('Batch script contains only whitespace!');
  if (!text.startsWith('#!')) {
    throw new UserError(
      'This does not look like a batch script.  The first\n' +
        'line must start with #! followed by the path to an interpreter.\n' +
        'For instance: #!/bin/sh',
    );
  }
  if (text.includes('\0')) {
    throw new UserError("The Slurm controller does not allow scripts that\ncontain a NULL character '\\0'.");
  }
  if (text.includes('\r\n')) {
    throw new UserError('Batch script contains DOS line breaks (\\r\\n)\ninstead of expected UNIX line breaks (\\n).');
  }
  return script;
}

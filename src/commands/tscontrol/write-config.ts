// `tscontrol write config [FILE|-]`: the current cluster as a slurm.conf. Like scontrol, it
// writes `<FILE>.<time>` (FILE defaults to slurm.conf beside the cluster file, or in the
// working directory for the built-in cluster) and prints `Slurm config saved to <path>`; a
// job_container/tmpfs cluster also gets `job_container.conf.<time>` beside it. `-` prints
// the slurm.conf on stdout instead.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { formatSlurmDate } from '../../core/time-string.js';

export async function writeConfig(words: readonly string[], cluster: string | undefined): Promise<number> {
  const [what, target, ...extra] = words;
  // scontrol's own wording (22.05).
  if (what === undefined) throw new UserError('too few arguments for keyword:write');
  if (!/^conf/i.test(what)) throw new UserError(`invalid write argument:${what}`);
  if (extra.length > 0) throw new UserError('too many arguments for keyword:write');
  const { loadCluster } = await import('../../config/load.js');
  const config = await loadCluster({ file: cluster });
  const { writeSlurmConf } = await import('../../config/slurm-conf/write.js');
  const when = formatSlurmDate(Math.floor(Date.now() / 1000));
  const written = writeSlurmConf(config, when);
  if (target === '-') {
    process.stdout.write(written.slurmConf);
    return 0;
  }
  const base = target ?? path.join(config.source.startsWith('/') ? path.dirname(config.source) : process.cwd(), 'slurm.conf');
  const file = `${base}.${when}`;
  save(file, written.slurmConf);
  process.stdout.write(`Slurm config saved to ${file}\n`);
  if (written.jobContainerConf !== undefined) {
    const jc = path.join(path.dirname(base), `job_container.conf.${when}`);
    save(jc, written.jobContainerConf);
    process.stdout.write(`job_container.conf saved to ${jc}\n`);
  }
  return 0;
}

function save(file: string, text: string): void {
  try {
    writeFileSync(file, text, { mode: 0o644 });
  } catch (error) {
    throw new UserError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

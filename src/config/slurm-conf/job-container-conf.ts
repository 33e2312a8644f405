// job_container.conf (read when JobContainerType=job_container/tmpfs, from slurm.conf's
// directory) → the job_container/tmpfs plugin's options. A `NodeName=` line's settings apply
// to its nodes; tslurm runs every node's jobs under one setting, so a line naming nodes is
// taken when it is the only one (several different ones are an error rather than a guess).
import { expandHostlist } from '../../core/hostlist.js';
import { bool } from './numbers.js';
import { readSideConf, type SideConf } from './side-conf.js';

const KEYS = {
  top: ['AutoBasePath', 'BasePath', 'Dirs', 'InitScript', 'Shared'],
  records: { NodeName: ['AutoBasePath', 'BasePath', 'Dirs', 'InitScript', 'Shared'] },
} as const;

/** The tmpfs options from `file`, or undefined when there is no such file. */
export function jobContainerOptions(file: string, nodeNames: ReadonlySet<string>, errors: string[]): Record<string, unknown> | undefined {
  const conf = readSideConf(file, KEYS, errors);
  return conf && optionsOf(conf, nodeNames, errors);
}

export function optionsOf(conf: SideConf, nodeNames: ReadonlySet<string>, errors: string[]): Record<string, unknown> {
  const values = new Map([...conf.settings].map(([k, v]) => [k, { value: v.value, at: v.at }]));
  const mine = conf.records.filter((r) => {
    try {
      return expandHostlist(r.keys.get('NodeName')!).some((n) => nodeNames.has(n));
    } catch {
      errors.push(`${r.at.file}:${r.at.line}: NodeName: invalid hostlist "${r.keys.get('NodeName')}"`);
      return false;
    }
  });
  if (mine.length > 1) {
    const where = mine.map((r) => r.at.line).join(', ');
    errors.push(`${mine[1]!.at.file}:${mine[1]!.at.line}: tslurm applies one job_container setting to every node (NodeName lines ${where} differ)`);
  }
  for (const [key, value] of mine[0]?.keys ?? []) if (key !== 'NodeName') values.set(key, { value, at: mine[0]!.at });
  const options: Record<string, unknown> = {};
  for (const [key, { value, at }] of values) {
    if (key === 'BasePath') options.base_path = value;
    else if (key === 'Dirs') options.dirs = value.split(',').map((d) => d.trim()).filter(Boolean);
    else if (key === 'AutoBasePath' || key === 'Shared') {
      const flag = bool(value);
      if (flag === undefined) errors.push(`${at.file}:${at.line}: ${key}: expected true or false, got "${value}"`);
      else if (key === 'AutoBasePath') options.auto_base_path = flag;
      else options.shared = flag;
    } else if (key === 'InitScript') options.init_script = value;
  }
  return options;
}

// gres.conf (read from slurm.conf's directory when it exists) is checked line by line and
// kept: tslurm takes each node's resources from slurm.conf's Gres= (as slurmctld does) and has
// no devices to bind, so File=, Cores= and AutoDetect= describe nothing it uses. A bad count
// or hostlist is an error; lines for nodes of other clusters are fine, as in Slurm.
import { expandHostlist } from '../../core/hostlist.js';
import { readSideConf } from './side-conf.js';

const RECORD_KEYS = ['AutoDetect', 'Count', 'Cores', 'CoreSpecCount', 'File', 'Files', 'Flags', 'Links', 'MultipleFiles', 'Name', 'NodeName', 'Type'];

const KEYS = {
  top: ['AutoDetect'],
  records: { Name: RECORD_KEYS, NodeName: RECORD_KEYS },
};

export interface GresConfLine {
  name: string;
  type?: string;
  count?: number;
  file?: string;
  nodes?: string;
}

export function readGresConf(file: string, errors: string[]): GresConfLine[] | undefined {
  const conf = readSideConf(file, KEYS, errors);
  if (!conf) return undefined;
  const lines: GresConfLine[] = [];
  for (const r of conf.records) {
    const fail = (message: string) => errors.push(`${r.at.file}:${r.at.line}: ${message}`);
    const name = r.keys.get('Name');
    if (name === undefined) {
      // `NodeName=... AutoDetect=nvml` alone sets detection for those nodes.
      if (!r.keys.has('AutoDetect')) fail('Name= is required');
      continue;
    }
    const line: GresConfLine = { name };
    const type = r.keys.get('Type');
    if (type !== undefined) line.type = type;
    const count = r.keys.get('Count');
    if (count !== undefined) {
      const m = /^(\d+)([KMG]?)$/i.exec(count);
      if (!m) fail(`Count: invalid count "${count}"`);
      else line.count = Number(m[1]) * ({ '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2]!.toUpperCase()] ?? 1);
    }
    const files = r.keys.get('File') ?? r.keys.get('Files');
    if (files !== undefined) line.file = files;
    const nodes = r.keys.get('NodeName');
    if (nodes !== undefined) {
      line.nodes = nodes;
      try {
        expandHostlist(nodes);
      } catch {
        fail(`NodeName: invalid hostlist "${nodes}"`);
      }
    }
    lines.push(line);
  }
  return lines;
}

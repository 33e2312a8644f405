// A cluster description already in memory (not text) → ClusterConfig, through the same shapes
// and rules as a file. Used for the built-in default, so the common case never loads the
// YAML parser; a problem here is a bug in tslurm, not the user's.
import { deepFreeze } from './freeze.js';
import { IssueList } from './issues.js';
import { normalize, type Origin } from './normalize.js';
import { runRules } from './rules.js';
import { checkShapes } from './shapes.js';
import type { ClusterConfig } from './types.js';

export function buildClusterConfig(raw: unknown, origin: Origin): ClusterConfig {
  const issues = new IssueList();
  const draft = checkShapes(raw, issues);
  runRules(draft, issues);
  if (issues.size > 0) {
    const problems = issues.items.map((issue) => JSON.stringify(issue)).join('; ');
    throw new Error(`the built-in cluster description is invalid: ${problems}`);
  }
  return deepFreeze(normalize(draft, origin));
}

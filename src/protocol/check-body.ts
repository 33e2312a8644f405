// The one place a request body is checked against its schema (the RPC server calls it before
// any handler runs, and the controller's journal replay for each job it recovers). A refused
// body is one UserError naming the first field at fault and why, in words a user reads:
// `Invalid job description: ntasks: must be at least 1, got -5`.
import * as v from 'valibot';
import type { ErrnoName } from '../core/errno.js';
import { UserError } from '../core/errors.js';
import { JOB_DESC_ERRNO } from './job-desc.js';

/** Why a value is refused, with the dotted path of the field (empty for the whole body). */
export interface BodyProblem {
  path: string;
  why: string;
  code: ErrnoName | undefined;
}

/** The first problem of `input` against `schema`, or its typed value. */
export function examine<S extends v.GenericSchema>(schema: S, input: unknown): { ok: true; value: v.InferOutput<S> } | { ok: false; problem: BodyProblem } {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return { ok: true, value: result.output };
  const issue = result.issues[0];
  const keys = (issue.path ?? []).map((item) => String(item.key));
  return { ok: false, problem: { path: keys.join('.'), why: wordIssue(issue), code: errnoFor(keys, issue) } };
}

/** Checks a request's body; a refusal names the op (or the job description) and the field. */
export function checkBody<S extends v.GenericSchema>(op: string, schema: S, body: unknown): v.InferOutput<S> {
  const result = examine(schema, body);
  if (result.ok) return result.value;
  const { path, why, code } = result.problem;
  // A job description's fields are named as sbatch's options describe them, from the description.
  const inDesc = path.startsWith('desc.');
  const what = inDesc ? 'Invalid job description' : `Invalid ${op} request`;
  const field = inDesc ? path.slice('desc.'.length) : path;
  throw new UserError(`${what}: ${field === '' ? '' : `${field}: `}${why}`, code === undefined ? {} : { code });
}

function wordIssue(issue: v.BaseIssue<unknown>): string {
  const req = (issue as { requirement?: unknown }).requirement;
  if (!issue.path?.length && issue.input === undefined) return 'no body';
  switch (issue.type) {
    case 'min_value':
      return `must be at least ${String(req)}, got ${issue.received}`;
    case 'max_value':
      return `must be at most ${String(req)}, got ${issue.received}`;
    case 'integer':
      return `must be a whole number, got ${issue.received}`;
    case 'max_bytes':
      return `longer than ${String(req)} bytes (${issue.received})`;
    case 'min_length':
      return `must not be empty`;
    case 'picklist':
      return `must be one of ${(issue.expected ?? '').replace(/[()"]/g, '').split(' | ').join(', ')}, got ${issue.received}`;
    case 'strict_object':
      // A key that should not be there, or one that should and is not.
      if (issue.expected === 'never') return 'unknown field';
      if (issue.received === 'undefined') return 'missing';
      break;
    case 'object':
    case 'loose_object':
      if (issue.received === 'undefined') return 'missing';
      break;
  }
  if (issue.kind === 'schema') return `expected ${issue.expected ?? 'another type'}, got ${issue.received}`;
  return issue.message;
}

// A length beyond slurmctld's is its ESLURM_PATHNAME_TOO_LONG whatever the field; otherwise a
// job description's field has its own errno (JOB_DESC_ERRNO), found from its top-level key.
function errnoFor(keys: string[], issue: v.BaseIssue<unknown>): ErrnoName | undefined {
  if (issue.type === 'max_bytes') return 'ESLURM_PATHNAME_TOO_LONG';
  const at = keys[0] === 'desc' ? 1 : keys[0] === 'job' && keys[1] === 'desc' ? 2 : -1;
  if (at < 0) return undefined;
  return JOB_DESC_ERRNO[keys[at] as keyof typeof JOB_DESC_ERRNO];
}

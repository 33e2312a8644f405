// Failures as slurmrestd 22.05.8 reports them (observed: /work/ref/restd-slurmrestd-22.05.txt):
// the answer's `errors` array beside the usual `meta`, each entry with Slurm's errno and its
// strerror text. 22.05's handlers do not agree on the errno's key, and tsrestd keeps each as
// observed: `error_number` with `description` and `source` (jobs, cancel, most others),
// `errno` (a node, partition or reservation looked up by name) and `error_code` (job submission).
// The HTTP status is 400 for a request that does not parse, 500 for every other refusal.
import { errnoValue, slurm_strerror, type ErrnoName } from '../core/errno.js';
import { UserError } from '../core/errors.js';
import { restMeta, type Meta } from './meta.js';

export type ErrorStyle = 'error_number' | 'errno' | 'error_code';

export interface RestErrorEntry {
  description?: string;
  error_number?: number;
  errno?: number;
  error_code?: number;
  error?: string;
  source?: string;
}

export interface ErrorsBody {
  meta: Meta;
  errors: RestErrorEntry[];
  [payload: string]: unknown;
}

export interface RestErrorOptions {
  style?: ErrorStyle;
  /** Entries before this one (slurmrestd's "Unknown key" notes before its parse failure). */
  before?: RestErrorEntry[];
  status?: number;
}

/** A request refused with a Slurm errno. */
export class RestError extends Error {
  readonly style: ErrorStyle;
  readonly before: RestErrorEntry[];
  readonly status: number;

  constructor(
    readonly code: ErrnoName,
    readonly description: string,
    readonly source: string | undefined,
    options: RestErrorOptions = {},
  ) {
    super(description);
    this.name = 'RestError';
    this.style = options.style ?? 'error_number';
    this.before = options.before ?? [];
    this.status = options.status ?? statusFor(code);
  }

  get entries(): RestErrorEntry[] {
    return [...this.before, errorEntry(this.code, this.style, this.description, this.source)];
  }
}

/** One entry in the key order 22.05 writes for `style`. */
export function errorEntry(code: ErrnoName, style: ErrorStyle, description?: string, source?: string): RestErrorEntry {
  const error = slurm_strerror(code);
  const number = errnoValue(code);
  if (style === 'errno') return { error, errno: number };
  if (style === 'error_code') return { error_code: number, error };
  // dbv0.0.38 leaves out a source it does not know ("Unknown Query field").
  return { description: description ?? '', error_number: number, error, ...(source !== undefined && { source }) };
}

/**
 * The status and body for whatever a handler threw: a refusal with its errno (a controller's
 * refusal keeps the controller's errno), else Slurm's internal error. `style` and `source` say
 * how the route reports; `emptyList` names the list a failed lookup still carries, empty.
 */
export function errorsBody(error: unknown, route: { source: string; style?: ErrorStyle; emptyList?: string; plugin?: Meta['plugin'] }): { status: number; body: ErrorsBody } {
  const rest =
    error instanceof RestError
      ? error
      : error instanceof UserError
        ? new RestError(error.code ?? 'SLURM_ERROR', error.message, route.source, { style: route.style })
        : new RestError('ESLURM_INTERNAL', 'unexpected failure', route.source, { style: route.style });
  const body: ErrorsBody = { meta: restMeta(route.plugin), errors: rest.entries };
  if (route.emptyList) body[route.emptyList] = [];
  return { status: rest.status, body };
}

/** 22.05's statuses: a request that does not parse is 400; every other refusal 500. */
function statusFor(code: ErrnoName): number {
  switch (code) {
    case 'ESLURM_REST_FAIL_PARSING':
    case 'ESLURM_REST_INVALID_JOBS_DESC':
    case 'ESLURM_REST_INVALID_QUERY':
      return 400;
    default:
      return 500;
  }
}

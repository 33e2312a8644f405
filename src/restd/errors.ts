// Failures as slurmrestd reports them: the answer's `errors` array, one entry per failure with
// Slurm's errno (`error_number`), its strerror text (`error`), what was being done
// (`description`) and where (`source`), as slurmrestd 22.05.8 sends them (observed), beside the
// usual `meta`. The HTTP status follows the errno.
import { errnoValue, slurm_strerror, type ErrnoName } from '../core/errno.js';
import { UserError } from '../core/errors.js';
import { restMeta, type Meta } from './meta.js';

export interface RestErrorEntry {
  error: string;
  error_number: number;
  description?: string;
  source?: string;
}

export interface ErrorsBody {
  meta: Meta;
  errors: RestErrorEntry[];
}

/** A request refused with a Slurm errno. */
export class RestError extends Error {
  constructor(
    readonly code: ErrnoName,
    readonly description: string,
    readonly source: string,
    readonly status = statusFor(code),
  ) {
    super(description);
    this.name = 'RestError';
  }

  get entry(): RestErrorEntry {
    return { error: slurm_strerror(this.code), error_number: errnoValue(this.code), description: this.description, source: this.source };
  }
}

/** The errors body for whatever a handler threw: a refusal with its errno, else Slurm's internal error. */
export function errorsBody(error: unknown, source: string): { status: number; body: ErrorsBody } {
  const rest = asRestError(error, source);
  return { status: rest.status, body: { meta: restMeta(), errors: [rest.entry] } };
}

function asRestError(error: unknown, source: string): RestError {
  if (error instanceof RestError) return error;
  // The controller's refusal (ControllerError) or a user error of ours: its errno and text.
  if (error instanceof UserError) return new RestError(error.code ?? 'SLURM_ERROR', error.message, source);
  return new RestError('ESLURM_INTERNAL', 'unexpected failure', source);
}

/** HTTP status per errno: what names no thing found is 404, a bad request 400/422, the rest 500. */
function statusFor(code: ErrnoName): number {
  switch (code) {
    case 'ESLURM_INVALID_JOB_ID':
    case 'ESLURM_INVALID_NODE_NAME':
    case 'ESLURM_INVALID_PARTITION_NAME':
    case 'ESLURM_RESERVATION_INVALID':
    case 'ESLURM_REST_EMPTY_RESULT':
      return 404;
    case 'ESLURM_REST_FAIL_PARSING':
    case 'ESLURM_REST_INVALID_JOBS_DESC':
      return 400;
    case 'ESLURM_REST_INVALID_QUERY':
      return 422;
    case 'ESLURM_ACCESS_DENIED':
      return 403;
    case 'SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR':
      return 502;
    default:
      return 500;
  }
}

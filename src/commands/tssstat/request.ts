// What tssstat was asked: the job steps (`12`, `12.0`, `12.batch`, comma-separated) and the
// fields (`-o JobID,MaxRSS%12`), refused with sstat's own words.
import { UserError } from '../../core/errors.js';
import { FIELDS, type FieldSpec } from './fields.js';

export interface StepRequestId {
  jobId: number;
  step?: number | 'batch';
  /** As given, for messages. */
  text: string;
}

export function parseStepIds(text: string): StepRequestId[] {
  return text
    .split(',')
    .filter((part) => part !== '')
    .map((part) => {
      const match = /^(\d+)(?:\.(\d+|batch))?$/.exec(part.trim());
      if (!match) throw new UserError(`fatal: Bad job/step specified: ${part}`);
      const step = match[2];
      return { jobId: Number(match[1]), ...(step !== undefined && { step: step === 'batch' ? ('batch' as const) : Number(step) }), text: part };
    });
}

export interface ChosenField {
  spec: FieldSpec;
  width: number;
}

/** `Name` or `Name%N`, matched without regard to case as sstat does. */
export function parseFormat(text: string): ChosenField[] {
  return text
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const [name, width] = part.trim().split('%') as [string, string | undefined];
      const spec = FIELDS.find((f) => f.name.toLowerCase() === name.toLowerCase());
      if (!spec) throw new UserError(`Invalid field requested: "${name}"`);
      const given = width === undefined ? Number.NaN : Number.parseInt(width, 10);
      return { spec, width: Number.isFinite(given) && given > 0 ? given : spec.width };
    });
}

// sbatch ends some mistakes with fatal() rather than error(), so the line reads
// "sbatch: fatal: ..." (observed: --mem with --mem-per-cpu, an unmatched quote in #SBATCH).
// index.ts prints these with "fatal:".
import { UserError } from '../../core/errors.js';

export class FatalError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'FatalError';
  }
}

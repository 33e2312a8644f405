// The submission itself lives in submit-batch.ts (the controller conversation).
export { submitBatch } from './submit-batch.js';

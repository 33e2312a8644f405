// Shared by the config tests: where the cluster fixtures live, and a way to get the
// message lines of a load that is expected to fail.
import { fileURLToPath } from 'node:url';
import { UserErrorList } from '../../../src/core/errors.js';

export const CLUSTERS = fileURLToPath(new URL('../../../fixtures/clusters/', import.meta.url));

/** The lines of the UserErrorList `run` throws (fails the test if it throws anything else). */
export async function problems(run: () => unknown): Promise<readonly string[]> {
  try {
    await run();
  } catch (error) {
    if (error instanceof UserErrorList) return error.messages;
    throw error;
  }
  throw new Error('expected the load to fail');
}

// The UserError a call throws, for assertions on its message, errno and exit status.
import { UserError } from '../../src/core/errors.js';

export function thrown(fn: () => unknown): UserError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error('no error thrown');
}

export async function rejected(promise: Promise<unknown>): Promise<UserError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error('no error thrown');
}

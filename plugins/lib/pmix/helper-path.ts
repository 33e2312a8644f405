// Where the PMIx server helper is: TSLURM_PMIX_SERVER (tests put a fake helper there), else
// dist/native/tspmix_server, which `npm run build` compiles when libpmix-dev and a C compiler
// are present (scripts/build-native.js).
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const HELPER_NOT_BUILT =
  'the PMIx server helper is not built: install libpmix-dev and a C compiler, then npm run build';

// Built code runs from dist/plugins/ or dist/chunks/; the sources (vitest) from plugins/lib/pmix/.
const candidates = ['../native/tspmix_server', '../../../dist/native/tspmix_server'];

/** The helper's path, or undefined when it is not built. */
export function findPmixHelper(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const files = env.TSLURM_PMIX_SERVER ? [env.TSLURM_PMIX_SERVER] : candidates.map((c) => fileURLToPath(new URL(c, import.meta.url)));
  return files.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

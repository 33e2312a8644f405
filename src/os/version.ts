// The toolkit's version, put in by the build (scripts/build.js `define`) so that no command
// reads package.json at start-up; tests running from source fall back to the package file.
import { readFileSync } from 'node:fs';

declare const __TSLURM_VERSION__: string | undefined;

export const TOOLKIT_VERSION: string =
  typeof __TSLURM_VERSION__ === 'string' ? __TSLURM_VERSION__ : readPackageVersion();

function readPackageVersion(): string {
  // Only reached when running the TypeScript sources directly (vitest), never from dist/.
  const url = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

/** major, minor, micro of the running toolkit. */
export function toolkitVersionParts(): { major: number; minor: number; micro: number } {
  const [major = 0, minor = 0, micro = 0] = TOOLKIT_VERSION.split('.').map((p) => Number.parseInt(p, 10));
  return { major, minor, micro };
}

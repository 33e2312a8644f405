// Where the native helpers built by scripts/build-native.js live (dist/native/), found the
// same way for each: built code runs from one level under dist/ (dist/chunks/, dist/main/,
// dist/commands/), the sources (vitest) from src/stepd/. A helper is missing when no C
// compiler was there at build time; each caller says what it does then.
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

const found = new Map<string, string | null>();

/** The path of dist/native/`name` when it was built and is executable, else undefined. */
export function nativeHelper(name: string): string | undefined {
  let path = found.get(name);
  if (path === undefined) {
    path = [`../native/${name}`, `../../dist/native/${name}`].map((c) => fileURLToPath(new URL(c, import.meta.url))).find(executable) ?? null;
    found.set(name, path);
  }
  return path ?? undefined;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// The auth/jwt signing key: `jwt_hs256.key` in the state directory (Slurm's default place,
// StateSaveLocation/jwt_hs256.key), 32 random bytes made on first use with mode 0600.
// `tscontrol token` signs with it and tsrestd checks with it. A key others may read is
// refused: whoever reads it can make a token for any user.
import { linkSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { UserError } from '../core/errors.js';
import { ensureDir } from './ensure-dir.js';
import { checkTrustedFile } from '../config/trusted-path.js';

export const JWT_KEY_FILE = 'jwt_hs256.key';
const KEY_BYTES = 32;

/** The key of `stateDir`, made when there is none yet. */
export function jwtKey(stateDir: string): Buffer {
  const file = path.join(stateDir, JWT_KEY_FILE);
  try {
    return readKey(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  ensureDir(stateDir);
  // Written whole under another name, then linked into place: two first uses at once make
  // one key (the second link fails with EEXIST) and nobody reads a half-written one.
  const draft = `${file}.${process.pid}.new`;
  try {
    writeFileSync(draft, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new UserError(`cannot create ${file}: ${(error as Error).message}`);
  } finally {
    rmSync(draft, { force: true });
  }
  return readKey(file);
}

function readKey(file: string): Buffer {
  checkTrustedFile(file, 'jwt key');
  if ((statSync(file).mode & 0o077) !== 0) throw new UserError(`jwt key ${file} is readable by others; run: chmod 600 ${file}`);
  const key = readFileSync(file);
  if (key.length < KEY_BYTES) throw new UserError(`jwt key ${file} is too short (${key.length} bytes, at least ${KEY_BYTES})`);
  return key;
}

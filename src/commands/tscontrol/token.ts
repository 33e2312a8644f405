// scontrol token [lifespan=SECONDS] [username=NAME]: a JWT for tsrestd's X-SLURM-USER-TOKEN,
// printed as `SLURM_JWT=<token>`, signed (HS256) with the state directory's auth/jwt key
// (os/jwt-key.ts; made on first use). As in Slurm: the keys in any case, lifespan read as
// atoi() reads it with 0 (or none) for the default of 1800 seconds, every failure to make one
// reported as "Error fetching token" (exit 1; -v adds why), an unknown argument as "Invalid
// option". Only the key's owner (the cluster's own user, Slurm's SlurmUser) and root can read
// the key, and those are who Slurm lets ask for another user's token with username=.
import { userInfo } from 'node:os';
import { UserError } from '../../core/errors.js';
import { signJwt } from '../../core/jwt-hs256.js';

/** slurmctld's lifespan when none is asked for. */
const DEFAULT_LIFESPAN = 1800;

export async function token(words: readonly string[], cluster: string | undefined, verbose: number): Promise<number> {
  let lifespan = 0;
  let username: string | undefined;
  for (const word of words) {
    const match = /^(lifespan|username)=(.*)$/i.exec(word);
    if (!match) throw new UserError(`Invalid option: \`${word}\``, { bare: true });
    if (match[1]!.toLowerCase() === 'lifespan') lifespan = Number.parseInt(match[2]!, 10) || 0;
    else username = match[2]!;
  }
  const me = userInfo();
  const name = username ?? me.username;
  try {
    const { loadCluster } = await import('../../config/load.js');
    const { resolveStateDir } = await import('../../config/state-dir.js');
    const { jwtKey } = await import('../../os/jwt-key.js');
    const { uidForName } = await import('../../os/users.js');
    const stateDir = resolveStateDir(await loadCluster({ file: cluster }));
    const key = jwtKey(stateDir);
    if (uidForName(name) === undefined) throw new UserError(`unknown user ${name}`);
    const now = Math.floor(Date.now() / 1000);
    const jwt = signJwt({ iat: now, exp: now + (lifespan > 0 ? lifespan : DEFAULT_LIFESPAN), sun: name }, key);
    process.stdout.write(`SLURM_JWT=${jwt}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    // Slurm says no more; -v says why.
    if (verbose > 0) process.stderr.write(`tscontrol: error: ${error.message}\n`);
    throw new UserError('Error fetching token', { bare: true });
  }
}

import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIN_CURSOR_SECRET_BYTES } from './settings';

/**
 * Files in the embedded engine's data directory: the cursor secret made when CURSOR_SECRET is unset (so cursors
 * survive a restart as the data does), and the only access key the engine accepts.
 */
export const CURSOR_SECRET_FILE = 'cursor-secret';
export const ENGINE_SECRET_FILE = 'engine-secret';

/** A secret kept in `dataDir` as `name` (mode 0600): 32 random bytes made by the first caller, read by the rest. */
export function persistedSecret(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  try {
    writeFileSync(file, `${randomBytes(MIN_CURSOR_SECRET_BYTES).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (Buffer.byteLength(secret) < MIN_CURSOR_SECRET_BYTES) {
    throw new Error(`${file} holds fewer than ${MIN_CURSOR_SECRET_BYTES} bytes: remove it to have a new one made`);
  }
  return secret;
}

/**
 * The batch key option shared by `retrosim batch --redis` and `retrosim worker`: `--key-file FILE`, else
 * the environment (see src/batch/auth.ts). A key that cannot be used is a usage error naming where it
 * came from, never the key.
 */
import type { BatchKey } from '../batch/auth.js';
import { UsageError } from './args.js';

/** The option's usage text, its description starting at column `col`. */
export function keyUsage(col: number): string {
  const pad = ' '.repeat(col);
  return [
    `  ${'--key-file FILE'.padEnd(col - 2)}a shared secret (at least 16 bytes, in a private file: chmod 600): jobs`,
    `${pad}are signed with it and workers run only jobs signed with it; results are signed and`,
    `${pad}checked the same way. Or name the file in RETROSIM_BATCH_KEY_FILE, or put the key in`,
    `${pad}RETROSIM_BATCH_KEY (which any code in the process can read: prefer the file). Without a`,
    `${pad}key, anyone who can reach the Redis can add jobs that workers run and answer jobs with`,
    `${pad}results of their own.`,
  ].join('\n');
}

export async function batchKeyOption(file: string | undefined): Promise<BatchKey | null> {
  const { batchKeyFrom, KeyError } = await import('../batch/auth.js');
  try {
    return batchKeyFrom(file);
  } catch (e) {
    if (e instanceof KeyError) throw new UsageError(e.message);
    throw e;
  }
}

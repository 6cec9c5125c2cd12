/**
 * The batch queue's client packages, bullmq and ioredis, are optional peer dependencies: a default install
 * has neither (nor their native add-on), and only `--redis` and `retrosim worker` need them. This checks that
 * they can be loaded before such a command starts, and says what to install when they cannot.
 */
import { UsageError } from './args.js';

/** The queue client's packages and the versions the queue is tested with. */
export const QUEUE_CLIENT: Readonly<Record<string, string>> = { bullmq: '6.7.0', ioredis: '6.0.0' };

/** Throws a UsageError naming the packages to install when the queue client is not installed. */
export async function requireQueueClient(what: string): Promise<void> {
  const missing: string[] = [];
  for (const name of Object.keys(QUEUE_CLIENT)) {
    try {
      await import(name);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'ERR_MODULE_NOT_FOUND' && err.message.includes(`'${name}'`)) missing.push(name);
      else throw e;
    }
  }
  if (missing.length) {
    throw new UsageError(`${what} needs the batch queue's client, an optional dependency that is not installed: npm install ${missing.map((n) => `${n}@${QUEUE_CLIENT[n]}`).join(' ')}`);
  }
}

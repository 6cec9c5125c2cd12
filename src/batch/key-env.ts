/**
 * The environment variables a batch key may come from, and the environment a batch thread is started with
 * (without them): a file of its own, so that what starts threads (pool.ts, scenario-facts.ts) needs nothing
 * else of auth.ts.
 */

/** The environment variable naming a key file. */
export const KEY_FILE_ENV = 'RETROSIM_BATCH_KEY_FILE';
/** The environment variable holding a key. */
export const KEY_ENV = 'RETROSIM_BATCH_KEY';

/**
 * The environment a batch thread is started with: `env` without RETROSIM_BATCH_KEY and
 * RETROSIM_BATCH_KEY_FILE (a thread runs scenario modules, and needs neither).
 */
export function threadEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  delete out[KEY_ENV];
  delete out[KEY_FILE_ENV];
  return out;
}


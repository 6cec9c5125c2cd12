/**
 * The `--redis URL` option of `retrosim batch` and `retrosim worker`, checked before any connection: a URL
 * that does not parse (a bad host or a port over 65535), a database that is not a number, or a password
 * with a broken %-escape is a usage error naming the option, never a stack trace from the Redis client or a
 * client that retries a SELECT of "NaN" for ever. The password is never shown.
 */
import { UsageError } from './args.js';

/** `url` when it is a Redis URL the client can use; else a UsageError saying what is wrong. */
export function checkRedisUrl(url: string): string {
  const bad = (what: string): never => {
    // The password is masked as in the queue's messages (batch/redis-connection.ts).
    const shown = url.replace(/^(rediss?:\/\/)([^@/]*@)/, (_, scheme: string, auth: string) => `${scheme}${auth.includes(':') ? `${auth.split(':')[0]}:***@` : auth}`);
    throw new UsageError(`--redis ${JSON.stringify(shown)}: ${what}`);
  };
  if (!/^rediss?:\/\/[^\s]+$/.test(url)) bad('expected redis://host:port (or rediss:// for TLS)');
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return bad('not a URL (expected redis://host:port, a port of 1 to 65535)');
  }
  if (u.hostname === '') bad('no host (expected redis://host:port)');
  if (!/^(\/(\d{1,9})?)?$/.test(u.pathname)) bad(`the database must be a number (redis://host:port/0), not ${JSON.stringify(decodeSafe(u.pathname.slice(1)))}`);
  for (const part of [u.username, u.password]) {
    try {
      decodeURIComponent(part);
    } catch {
      bad('a user name or password with a broken %-escape');
    }
  }
  return url;
}

/**
 * Whether a checked `--redis` URL names this machine by a loopback address: `localhost`, 127.0.0.0/8 in
 * dotted quads, `::1`, or an IPv4 loopback address mapped into IPv6. Any other name or form (a name that
 * resolves to this machine, `127.1`), is not taken as loopback.
 */
export function isLoopbackRedis(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  if (host.startsWith('[') && host.endsWith(']')) {
    const v6 = host.slice(1, -1);
    if (v6 === '::1') return true;
    // ::ffff:127.x.y.z, which the URL parser writes as ::ffff:7fxx:xxxx.
    return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(v6);
  }
  return false;
}

/**
 * The rule for a queue without a key: allowed on a loopback address (only this machine's users reach it);
 * elsewhere only with `--insecure`, else a UsageError saying what is at stake and what to give.
 */
export function checkKeyless(url: string, keyed: boolean, insecure: boolean): void {
  if (keyed || insecure || isLoopbackRedis(url)) return;
  const shown = url.replace(/^(rediss?:\/\/)([^@/]*@)/, (_, scheme: string, auth: string) => `${scheme}${auth.includes(':') ? `${auth.split(':')[0]}:***@` : auth}`);
  throw new UsageError(
    `--redis ${shown} is not a loopback address and there is no key: anyone who can reach that Redis could run jobs on the workers and forge results; give --key-file FILE (or RETROSIM_BATCH_KEY_FILE), or --insecure to run without a key`,
  );
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s).slice(0, 64);
  } catch {
    return s.slice(0, 64);
  }
}

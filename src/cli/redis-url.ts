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

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s).slice(0, 64);
  } catch {
    return s.slice(0, 64);
  }
}

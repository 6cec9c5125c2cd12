/**
 * Connections to Redis for the queue path (loaded only with `--redis`): ioredis clients made the way
 * BullMQ needs them under native ESM (constructed here, `maxRetriesPerRequest: null`), reconnecting with
 * exponential backoff, and one reporter that turns their errors into one line when the connection is
 * lost and one when it is back, never a stack trace.
 */
import type { Redis as RedisClient, RedisOptions } from 'ioredis';

/** Backoff between reconnection attempts: 100 ms doubling to at most 5 s. */
export function backoffMs(attempt: number): number {
  return Math.min(5000, 100 * 2 ** Math.min(Math.max(attempt - 1, 0), 6));
}

/** The URL without a password, for messages. */
export function safeUrl(url: string): string {
  return url.replace(/^(rediss?:\/\/)([^@/]*@)/, (_, scheme: string, auth: string) => `${scheme}${auth.includes(':') ? `${auth.split(':')[0]}:***@` : auth}`);
}

/** Reports the state of a group of connections: lost once, back once (not once per client or per attempt). */
export class ConnectionReporter {
  private readonly down = new Set<string>();
  private since = 0;
  private lastReason = '';
  private readonly said = new Set<string>();

  constructor(
    private readonly url: string,
    private readonly say: (line: string) => void,
  ) {}

  /** Seconds the connection has been lost (0 when it is up). */
  lostFor(): number {
    return this.down.size ? (performance.now() - this.since) / 1000 : 0;
  }

  /** The last error seen while lost. */
  reason(): string {
    return this.lastReason;
  }

  lost(client: string, e: Error & { code?: string }): void {
    this.lastReason = e.code ?? e.message.split('\n')[0] ?? 'error';
    if (this.down.has(client)) return;
    if (this.down.size === 0) {
      this.since = performance.now();
      this.say(`redis ${safeUrl(this.url)}: connection lost (${this.lastReason}); retrying with backoff`);
    }
    this.down.add(client);
  }

  ready(client: string): void {
    if (!this.down.delete(client)) return;
    if (this.down.size === 0) this.said.clear();
    if (this.down.size === 0) this.say(`redis ${safeUrl(this.url)}: connected again after ${((performance.now() - this.since) / 1000).toFixed(1)} s`);
  }

  /** A client closed for good: no longer waited for. */
  forget(client: string): void {
    this.down.delete(client);
  }

  /**
   * An error BullMQ reports as an event. A lost connection is already reported by our own clients (they
   * lose it too), so only other errors are said, one line each, and the same one only once per outage.
   */
  error(e: Error & { code?: string }): void {
    if (isConnectionError(e)) return;
    const line = e.message.split('\n')[0] ?? 'error';
    if (this.said.has(line)) return;
    this.said.add(line);
    this.say(`redis ${safeUrl(this.url)}: ${line}`);
  }
}

let clients = 0;
type RedisConstructor = typeof import('ioredis').Redis;
let redisClass: RedisConstructor | undefined;

/** ioredis's client class, loaded on first use. */
export async function ioredis(): Promise<RedisConstructor> {
  redisClass ??= (await import('ioredis')).Redis;
  return redisClass;
}

/** A client named `name` that reconnects forever with backoff and reports through `reporter`. */
export async function redisClient(url: string, name: string, reporter: ConnectionReporter, extra: RedisOptions = {}): Promise<RedisClient> {
  const Redis = await ioredis();
  const c = new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectionName: `retrosim:${name}`,
    retryStrategy: backoffMs,
    ...extra,
  });
  const id = `${name}#${++clients}`;
  c.on('error', (e: Error) => reporter.lost(id, e));
  c.on('end', () => reporter.forget(id));
  c.on('ready', () => reporter.ready(id));
  return c;
}

/** Whether an error is a connection that failed or dropped (as opposed to an error Redis answered with). */
export function isConnectionError(e: unknown): boolean {
  const m = `${(e as { code?: string })?.code ?? ''} ${(e as Error)?.message ?? ''}`;
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|Connection is closed|Stream isn't writeable|connect /i.test(m);
}

/** Waits until `c` is ready, or rejects after `seconds` with a one-line reason. */
export function whenReady(c: RedisClient, url: string, seconds: number, reporter: ConnectionReporter): Promise<void> {
  if (c.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      c.off('ready', ok);
      reject(new Error(`cannot reach Redis at ${safeUrl(url)} (${reporter.reason() || 'no answer'}) within ${seconds} s`));
    }, seconds * 1000);
    const ok = () => {
      clearTimeout(t);
      resolve();
    };
    c.once('ready', ok);
  });
}

/** Closes a client without waiting on a server that is not there. */
export async function closeClient(c: RedisClient): Promise<void> {
  if (c.status === 'ready') {
    let t: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([c.quit(), new Promise((r) => (t = setTimeout(r, 1000)))]);
    } catch {
      // already gone
    } finally {
      clearTimeout(t);
    }
  }
  c.disconnect();
}

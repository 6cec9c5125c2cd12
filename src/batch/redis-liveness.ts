/**
 * Knowing when Redis has stopped answering, and letting go of it without waiting for it (the queue path,
 * loaded only with `--redis`).
 *
 * A lost connection is seen as errors, but a frozen server (stopped, swapped out, a network that drops
 * packets without a reset) gives none: the socket stays open and commands simply get no answer. So the
 * time that counts is the time since Redis last answered anything, measured by a probe (a PING, or the
 * worker's read of the cancel counter) sent on a connection of its own, one at a time: while Redis is
 * away or frozen the probe waits and the silence grows; once it answers again the silence is zero.
 *
 * The silence is Redis's, not this process's: time in which this process did not run at all (stopped
 * with SIGSTOP, a laptop asleep, starved on a loaded machine) does not count, since an answer may be
 * waiting unread in the socket meanwhile; and a silence past the limit is judged only after the event
 * loop has read its sockets once more.
 *
 * Closing a connection politely (QUIT, BullMQ's close) waits for an answer too: `closeWithin` gives each
 * close a bound and then drops the connection, and `exitWhenHeld` ends the process soon after a command
 * is done if something left open (a connection BullMQ made for itself) would otherwise hold it forever.
 */
import type { Redis as RedisClient } from 'ioredis';

/** Milliseconds between probes. */
export const PROBE_MS = 500;
/** How long a polite close (QUIT, BullMQ's close) may take before the connection is dropped, ms. */
export const CLOSE_MS = 1000;
/** How long a finished Redis command may be held open by connections left behind, ms. */
export const EXIT_HELD_MS = 2000;
/** A gap between two of this watch's timer ticks longer than this means the process did not run, ms. */
export const STALL_MS = 1500;

/** Watches one connection's answers: `silentFor` is the time since Redis last answered the probe. */
export class AnswerWatch<T = unknown> {
  private last = performance.now();
  /** When one of this watch's timers last ran (to see the gaps in which the process did not run). */
  private tick = this.last;
  private waiting = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  /**
   * `probe` is sent every PROBE_MS (never two at once); `onAnswer` gets each answer. The silence counts
   * from now, so a Redis that never answers at all is silent from the start.
   */
  constructor(
    private readonly client: RedisClient,
    private readonly probe: (c: RedisClient) => Promise<T> = (c) => c.ping() as Promise<T>,
    private readonly onAnswer: (answer: T) => void = () => undefined,
  ) {
    this.timer = setInterval(() => {
      this.ticked();
      this.send();
    }, PROBE_MS);
    this.send();
  }

  /** Takes a gap in which this process did not run off the silence (see the module comment). */
  private ticked(): void {
    const now = performance.now();
    const gap = now - this.tick;
    this.tick = now;
    if (gap > STALL_MS) this.last = Math.min(now, this.last + gap - PROBE_MS);
  }

  private send(): void {
    if (this.waiting || this.timer === undefined) return;
    this.waiting = true;
    this.probe(this.client).then(
      (a) => {
        this.waiting = false;
        if (this.timer === undefined) return;
        this.last = performance.now();
        this.onAnswer(a);
      },
      () => {
        // An error reply is an answer too; a connection error is not.
        this.waiting = false;
      },
    );
  }

  /** Seconds since Redis last answered (0 right after an answer). */
  silentFor(): number {
    return (performance.now() - this.last) / 1000;
  }

  /**
   * A promise that rejects with `error()` once Redis has been silent for more than `seconds` (never
   * resolves); stops with `stop`.
   */
  silence(seconds: number, error: () => Error): Promise<never> {
    const p = new Promise<never>((_, reject) => {
      let judging = false;
      const t = setInterval(() => {
        this.ticked();
        if (this.timer === undefined) clearInterval(t);
        else if (this.silentFor() > seconds && !judging) {
          // After the sockets are read once more (setImmediate runs after the poll phase): an answer that
          // came while this process was not running is counted first.
          judging = true;
          setImmediate(() => {
            judging = false;
            if (this.timer !== undefined && this.silentFor() > seconds) {
              clearInterval(t);
              reject(error());
            }
          });
        }
      }, 250);
    });
    p.catch(() => undefined);
    return p;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Waits for `p` at most `ms`: true when it settled (either way) in time. */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let t: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([p.then(() => true, () => true), new Promise<boolean>((r) => (t = setTimeout(() => r(false), ms)))]);
  } finally {
    clearTimeout(t);
  }
}

/** A BullMQ Queue, QueueEvents or Worker: closed politely, or dropped. */
interface Closable {
  close(): Promise<void>;
  disconnect(): Promise<void>;
}

/**
 * Closes a BullMQ object, waiting at most `ms` for Redis; past that its connections are dropped (not
 * awaited either: a connection that never finished connecting may not even drop at once).
 */
export async function closeWithin(o: Closable, ms = CLOSE_MS): Promise<void> {
  if (await settlesWithin(o.close(), ms)) return;
  void Promise.resolve()
    .then(() => o.disconnect())
    .catch(() => undefined);
}

/**
 * Ends the process EXIT_HELD_MS from now if it is still running then (with the exit code it has by then):
 * called when a Redis command has done its work, so that a connection left open for good (a frozen
 * Redis never answers its QUIT) cannot keep it from exiting. The timer does not itself hold the process.
 */
export function exitWhenHeld(ms = EXIT_HELD_MS): void {
  setTimeout(() => process.exit(), ms).unref();
}

/**
 * The progress line of a batch on stderr: jobs done of all, failed, retried, the rate and the time left.
 * On a terminal it redraws one line; otherwise (a log, a pipe) it prints a line at most every few seconds,
 * and the last one at the end.
 */

export interface ProgressCounts {
  done: number;
  failed: number;
  retried: number;
  /** Taken from earlier results, not run. */
  cached: number;
}

/** Seconds between lines when stderr is not a terminal. */
export const LOG_INTERVAL_SECONDS = 5;

export class Progress {
  private readonly t0 = performance.now();
  private lastLog = 0;
  private lastText = '';

  constructor(
    /** Jobs to run (not counting those taken from earlier results). */
    private readonly total: number,
    private readonly write: (s: string) => void,
    private readonly tty: boolean,
  ) {}

  update(c: ProgressCounts, final = false): void {
    const elapsed = (performance.now() - this.t0) / 1000;
    const finished = c.done + c.failed;
    const rate = elapsed > 0 ? finished / elapsed : 0;
    const left = this.total - finished;
    const eta = rate > 0 && left > 0 ? `, ETA ${formatSeconds(left / rate)}` : '';
    const pct = this.total ? Math.floor((100 * finished) / this.total) : 100;
    const width = 24;
    const filled = Math.round((width * pct) / 100);
    const text =
      `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${finished}/${this.total} jobs: ${c.done} done, ${c.failed} failed, ${c.retried} retried` +
      `${c.cached ? `, ${c.cached} from earlier results` : ''}, ${rate.toFixed(rate >= 10 ? 0 : 1)} jobs/s${eta}`;
    if (this.tty) {
      if (text !== this.lastText) this.write(`\r${text}\x1b[K${final ? '\n' : ''}`);
      else if (final) this.write('\n');
    } else if (final || elapsed - this.lastLog >= LOG_INTERVAL_SECONDS) {
      this.lastLog = elapsed;
      this.write(`batch: ${text}\n`);
    }
    this.lastText = text;
  }

  /** A message on its own line (the bar is drawn again after it). */
  note(line: string): void {
    this.write(this.tty ? `\r\x1b[K${line}\n${this.lastText}` : `${line}\n`);
  }
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${Math.ceil(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

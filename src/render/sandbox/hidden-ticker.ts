/**
 * A hidden tab keeps its room ticking. A browser stops a hidden page's animation frames and slows its timers to
 * about one a second, so a player whose tab is hidden would stop sending inputs and stall everyone else at the
 * edge of their prediction window. While the page is hidden and in a room, a small worker's timer (a worker's
 * timers are not slowed) wakes the page 60 times a second and the room runs its frames without drawing; the
 * room is also told the tab is hidden, so the others see why its moves may come late (a browser that freezes
 * a background tab outright stops the worker too). When the page shows again, the animation frames take over.
 */

/** What the ticker drives. */
export interface HiddenTickerHost {
  /** In a room (only then does a hidden page keep ticking). */
  active(): boolean;
  /** One wake-up while hidden: run the frames owed, without drawing. */
  tick(): void;
  /** The page was hidden (true) or shown again. */
  hidden(hidden: boolean): void;
}

/** The worker: a message every 1000/60 ms until it is told to stop. */
const WORKER_SOURCE = 'let t = setInterval(() => postMessage(0), 1000 / 60); onmessage = () => clearInterval(t);';

export class HiddenTicker {
  private worker: Worker | null = null;
  /** Wake-ups while hidden since the page loaded (tests read it). */
  wakeUps = 0;

  constructor(private readonly host: HiddenTickerHost) {
    document.addEventListener('visibilitychange', () => this.changed());
  }

  /** Whether the page is hidden now: the animation frames do not drive it then. */
  get hidden(): boolean {
    return document.visibilityState === 'hidden';
  }

  private changed(): void {
    const hidden = this.hidden;
    this.host.hidden(hidden);
    if (hidden && this.host.active()) this.start();
    else this.stop();
  }

  private start(): void {
    if (this.worker) return;
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
    this.worker = new Worker(url);
    URL.revokeObjectURL(url);
    this.worker.onmessage = () => {
      if (!this.hidden || !this.host.active()) return this.stop();
      this.wakeUps++;
      this.host.tick();
    };
  }

  private stop(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}

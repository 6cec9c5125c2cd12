/**
 * The replay controls: in the top bar's replay group, Record (and stop and download), Download replay (once
 * there is one), Play/Pause, one frame back and forward, the speed; below the bar, shown only while a replay
 * is loaded, Go live and the scrubber with its frame label. It shows the session's state it is given and
 * passes the user's choices on; the page decides what they do.
 */
import { $ } from './dom.js';
import type { PageAction } from './shortcuts.js';

/** What the replay bar asks of the page. */
export interface ReplayControlsHost {
  /** Record pressed: start recording, or stop and download. */
  record(): void;
  downloadReplay(): void;
  action(a: PageAction): void;
  setSpeed(speed: number): void;
  goLive(): void;
  /** The scrubber moved to a frame. */
  scrubTo(frame: number): void;
  focusMap(): void;
  syncUrl(): void;
}

/** What the bar shows. */
export interface ReplayBarState {
  mode: 'live' | 'replay';
  frame: number;
  replayLength: number;
  recording: boolean;
  paused: boolean;
  /** A recording is ready to download. */
  recorded: boolean;
}

export class ReplayControls {
  private readonly scrub = $<HTMLInputElement>('scrub');
  private readonly speed = $<HTMLSelectElement>('speed');
  private readonly frameLabel = $('frame-label');
  private readonly stepBack = $<HTMLButtonElement>('step-back');
  private readonly recordButton = $<HTMLButtonElement>('record');
  private readonly recordLabel = this.recordButton.querySelector('.label')!;
  private readonly playButton = $<HTMLButtonElement>('play');
  private readonly downloadButton = $<HTMLButtonElement>('download-replay');
  private readonly bar = $('replay-bar');

  constructor(host: ReplayControlsHost) {
    this.recordButton.addEventListener('click', () => host.record());
    this.downloadButton.addEventListener('click', () => host.downloadReplay());
    this.playButton.addEventListener('click', () => host.action('pause'));
    $('step').addEventListener('click', () => host.action('step-forward'));
    this.stepBack.addEventListener('click', () => host.action('step-back'));
    this.speed.addEventListener('change', () => {
      host.setSpeed(Number(this.speed.value));
      host.focusMap();
      host.syncUrl();
    });
    $('live').addEventListener('click', () => host.goLive());
    this.scrub.addEventListener('input', () => host.scrubTo(Number(this.scrub.value)));
    this.scrub.addEventListener('change', () => host.focusMap());
  }

  /** The speed menu shows `speed`. */
  showSpeed(speed: number): void {
    this.speed.value = String(speed);
  }

  /** A replay loaded: the scrubber spans its frames, at frame 0. */
  showReplay(length: number): void {
    this.scrub.max = String(length);
    this.scrub.value = '0';
  }

  update(s: ReplayBarState): void {
    const scrub = this.scrub;
    scrub.disabled = s.mode !== 'replay';
    if (s.mode === 'replay') {
      // Not while the user drags it.
      if (document.activeElement !== scrub) scrub.value = String(s.frame);
    } else scrub.value = '0';
    this.frameLabel.textContent = s.mode === 'replay' ? `${s.frame} / ${s.replayLength}` : `frame ${s.frame}`;
    this.stepBack.disabled = s.mode !== 'replay' || s.frame === 0;
    const rec = s.recording ? 'Stop' : 'Record';
    if (this.recordLabel.textContent !== rec) {
      this.recordLabel.textContent = rec;
      this.recordButton.title = s.recording ? 'stop recording and download the replay' : 'record a replay from frame 0';
      this.recordButton.classList.toggle('recording', s.recording);
    }
    // The button shows what a press does: play while paused, pause while running.
    const play = s.paused ? 'Play' : 'Pause';
    if (this.playButton.getAttribute('aria-label') !== play) {
      this.playButton.setAttribute('aria-label', play);
      this.playButton.classList.toggle('is-paused', s.paused);
    }
    this.downloadButton.disabled = !s.recorded;
    // Shown only when they do something: the bar one row, the timeline only for a replay.
    const replay = s.mode === 'replay';
    if (this.downloadButton.hidden === s.recorded) this.downloadButton.hidden = !s.recorded;
    if (this.bar.hidden === replay) this.bar.hidden = !replay;
  }
}

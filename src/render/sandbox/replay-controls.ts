/**
 * The replay controls: in the top bar's replay group, Save (the live run so far as a replay file), Download
 * replay (the one last saved), Play/Pause, one frame back and forward, the speed; below the bar, the timeline
 * of the live run (the page always records it) or of the replay loaded: Go live and the scrubber with its
 * frame label, and a note when the link cannot carry a steered run's keys. It shows the session's state it is
 * given and passes the user's choices on; the page decides what they do.
 */
import { $ } from './dom.js';
import { MAX_LINK_INPUT_CHARS } from '../scene/link-inputs.js';
import { liveSpan } from '../scene/timeline.js';
import type { PageAction } from './shortcuts.js';

/**
 * The note shown when a steered run's keys are too many for its link (`inputs`: the encoded keys, '' none,
 * null unknown), or an agent was sent in it (`sent`: a link carries no sends): the link then reopens the run
 * without them, and the replay file is the way to share it.
 */
export function linkInputsNote(inputs: string | null | undefined, sent = false): string {
  if (sent) return 'A link cannot carry the agents sent in this run: it reopens the run without them. Save the replay to share it exactly.';
  if (inputs === null) return 'The link cannot carry the keys of this run (the page no longer holds its start): it reopens the run without them.';
  if (!inputs || inputs.length <= MAX_LINK_INPUT_CHARS) return '';
  return `This run's keys are too many for a link (${inputs.length} characters, the most is ${MAX_LINK_INPUT_CHARS}): the link reopens the run without them. Save the replay to share it exactly.`;
}

/** What the replay bar asks of the page. */
export interface ReplayControlsHost {
  /** Save pressed: the live run so far as a replay file, downloaded. */
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
  /** What the timeline spans (null: none, e.g. a room's session): the oldest frame held and the last. */
  timeline: { start: number; end: number } | null;
  /** The live run is recorded (Save can write it). */
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
  private readonly live = $<HTMLButtonElement>('live');
  private readonly linkNote = $('link-note');

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

  /** The note under the link ('' none): see `linkInputsNote`. */
  showLinkNote(text: string): void {
    if (this.linkNote.textContent !== text) this.linkNote.textContent = text;
    if (this.linkNote.hidden === (text !== '')) this.linkNote.hidden = text === '';
  }

  update(s: ReplayBarState): void {
    const scrub = this.scrub;
    const t = s.timeline;
    scrub.disabled = !t;
    if (t) {
      // A live run's bar spans a round length past its last frame (the marks' span); seeking past it stops there.
      const max = String(s.mode === 'live' ? liveSpan(t.end) : t.end);
      if (scrub.max !== max) scrub.max = max;
      // Not while the user drags it.
      if (document.activeElement !== scrub) scrub.value = String(s.frame);
    } else scrub.value = '0';
    const label = t ? `${s.frame} / ${t.end}` : `frame ${s.frame}`;
    if (this.frameLabel.textContent !== label) this.frameLabel.textContent = label;
    this.stepBack.disabled = !t || s.frame <= t.start;
    // Go live: leaves a replay, or brings a live run scrubbed back to its last frame.
    this.live.disabled = s.mode === 'live' && (!t || s.frame >= t.end);
    const save = s.mode === 'live' && s.recording;
    if (this.recordButton.disabled === save) {
      this.recordButton.disabled = !save;
      this.recordButton.classList.toggle('recording', save);
    }
    // The button shows what a press does: play while paused, pause while running.
    const play = s.paused ? 'Play' : 'Pause';
    if (this.playButton.getAttribute('aria-label') !== play) {
      this.playButton.setAttribute('aria-label', play);
      this.playButton.classList.toggle('is-paused', s.paused);
    }
    this.downloadButton.disabled = !s.recorded;
    // Shown only when they do something: the bar one row, the timeline when there is one.
    if (this.downloadButton.hidden === s.recorded) this.downloadButton.hidden = !s.recorded;
    if (this.bar.hidden === !!t) this.bar.hidden = !t;
  }
}

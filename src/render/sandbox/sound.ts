/**
 * Sounds through howler, driven by the simulation's event bus: thunder (the game's sound 236), steam (43),
 * the traveller's hum (44, a loop whose volume and pan follow each frame's hum event) and footsteps (the
 * sandbox's own, from the player's walking). The audio files are the project's own synthesis
 * (scripts/make-sounds.ts → assets/sounds/).
 *
 * Listening never changes the simulation: mitt calls the handlers after the task emitted, and nothing
 * here writes back.
 */
import { Howl, Howler } from 'howler';
import type { EventBus, SimEvents } from '../../ecs/events.js';

/** Event sound names (src/systems/piney-ambient/tasks.ts emits "se<number>") to the sandbox's files. */
export const SOUND_FILES: Readonly<Record<string, string>> = {
  se236: 'thunder',
  se43: 'steam',
  'se44-loop-start': 'hum',
  'se44-loop': 'hum',
  footstep: 'footstep',
};

export class SoundPlayer {
  private readonly howls = new Map<string, Howl>();
  private humId: number | null = null;
  private muted = false;
  /** How many times each sound was started (the tests read it; it works without an audio device). */
  readonly started: Record<string, number> = {};
  private off: (() => void) | null = null;

  constructor(private readonly base: string) {
    for (const name of new Set(Object.values(SOUND_FILES))) {
      this.howls.set(
        name,
        new Howl({ src: [`${base}sounds/${name}.wav`], loop: name === 'hum', volume: name === 'footstep' ? 0.35 : 0.8, preload: true, html5: false }),
      );
    }
  }

  /** Which sound files howler has loaded and decoded (by name). */
  loaded(): Record<string, boolean> {
    const out: Record<string, boolean> = {};
    for (const [name, h] of this.howls) out[name] = h.state() === 'loaded';
    return out;
  }

  /** Listens to a simulation's bus (and stops listening to the previous one). */
  attach(events: EventBus): void {
    this.detach();
    const onSound = (e: SimEvents['sound']) => this.onSound(e);
    events.on('sound', onSound);
    this.off = () => events.off('sound', onSound);
  }

  detach(): void {
    this.off?.();
    this.off = null;
    this.stopHum();
  }

  setMuted(m: boolean): void {
    this.muted = m;
    Howler.mute(m);
  }

  get isMuted(): boolean {
    return this.muted;
  }

  private count(name: string): void {
    this.started[name] = (this.started[name] ?? 0) + 1;
  }

  private onSound(e: SimEvents['sound']): void {
    const file = SOUND_FILES[e.name];
    if (!file) return;
    if (e.name === 'se44-loop-start') {
      this.startHum();
      return;
    }
    if (e.name === 'se44-loop') {
      if (this.humId === null) this.startHum();
      const h = this.howls.get('hum')!;
      if (this.humId !== null) h.volume(Math.max(0, Math.min(1, e.volume ?? 0.5)), this.humId);
      return;
    }
    this.play(file);
  }

  play(file: string): void {
    const h = this.howls.get(file);
    if (!h) return;
    this.count(file);
    h.play();
  }

  footstep(): void {
    this.play('footstep');
  }

  private startHum(): void {
    if (this.humId !== null) return;
    this.count('hum');
    this.humId = this.howls.get('hum')!.play();
  }

  private stopHum(): void {
    if (this.humId === null) return;
    this.howls.get('hum')!.stop(this.humId);
    this.humId = null;
  }
}

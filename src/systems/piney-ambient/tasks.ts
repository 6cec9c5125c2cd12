/**
 * The field's tasks with the game's priorities (piney-ambient.md §3): ccThEntryCtrl 64, ccThEffect 80,
 * ccThSkill 82, ccThFieldDisp 96 (WORLD::Draw) and ccThParticle 98. All the weather's fieldrand and ccRand
 * draws happen in 96; the entry task's draws come on the first frame, before it.
 *
 * The first frames (Play(0), Play(1), Play(2) after GO):
 *   F0  the entry task's first slice draws (EntryGimmick); the display task breathes;
 *   F1  every task runs; the display task breathes a second time: no WORLD::Draw, no ambient draws;
 *   F2  the first WORLD::Draw (with the settling snow), then one ambient frame per awake frame.
 * While the tasks sleep (a menu), the frame's list is the last one again, with no draws and no state change.
 */
import type { FrameContext, TaskBody, TaskHandle } from '../../ecs/scheduler.js';
import { OpList, OP_STRIDE, OP_SOUND, OP_SOUND3D, OP_HUM, OP_HUM_START, OP_FLASH, OP_SMOKE, HUM_SE } from './ops.js';
import { drawAmbient, type AmbientState } from './ambient.js';
import { copyStatics, type AmbientStatics } from './statics.js';
import { envInto, envOf, type AmbientEnv, type AmbientView, type HeightFn } from './env.js';
import { value } from './ee-vec.js';
import type { Walk, WalkState } from './walk.js';
import { hashAmbient } from './hash.js';
import { checkShape } from './save-check.js';
import { FormatError } from '../../binary/format-error.js';

export const PRIORITY_ENTRY = 64;
export const PRIORITY_EFFECT = 80;
export const PRIORITY_SKILL = 82;
export const PRIORITY_FIELD_DISPLAY = 96;
export const PRIORITY_PARTICLE = 98;

/** The display task's slice on which WORLD::Draw first runs (Play(2)). */
export const FIRST_DRAW_SLICE = 2;

/**
 * The frame parity the fires read: the game uses ccSys +0x358 (frames since power-on); this port, like the
 * Rust one, counts the display task's awake frames from Play(0), so the first drawn frame is even. An offset
 * stands in for the console's clock when it is known.
 */
export function frameParityOdd(slice: number, offset: number): boolean {
  return ((slice + offset) & 1) === 1;
}

/** Something that gives each drawn frame's view (the player's and cameras' places). */
export interface ViewSource {
  /** The view for the next drawn frame; `odd` is the frame parity to put in it. */
  next(odd: boolean): AmbientView;
  save(): unknown;
  restore(s: unknown): void;
}

/** A ViewSource over the stand-in walk: each drawn frame steps it once, then reads it. */
export function walkSource(walk: Walk): ViewSource {
  return {
    next(odd) {
      walk.step();
      return walk.view(odd);
    },
    save: () => ({ ...walk.state }),
    restore: (s) => {
      walk.state = { ...(s as WalkState) };
    },
  };
}

export interface FrameOutput {
  ops: OpList;
  /** False when the list is the last frame's again (the tasks asleep, or no draw this frame). */
  fresh: boolean;
}

/** The display task's saved state. */
export interface AmbientRuntimeSave {
  slice: number;
  opsFrame: number;
  ops: { words: Uint32Array; length: number };
  state: AmbientState;
  statics: AmbientStatics;
  view: unknown;
  puffsStarted: number;
  puffLife: number[];
  entryDone: boolean;
}

/** What the field's tasks share: the ambient state, the statics, the view and the frame's list. */
export class AmbientRuntime {
  /** The display task's awake slices so far (0 before Play(0)). */
  slice = 0;
  /** The frame whose list `ops` is, or -1. */
  opsFrame = -1;
  ops = new OpList(256);
  /** Puffs effSmoke has started (particles task) and those still alive, by remaining life. */
  puffsStarted = 0;
  puffLife: number[] = [];
  entryDone = false;
  readonly handles: TaskHandle[] = [];
  /** The environment object the display task refills each frame. */
  private env: AmbientEnv | null = null;

  constructor(
    public state: AmbientState,
    public statics: AmbientStatics,
    readonly height: HeightFn,
    readonly view: ViewSource,
    readonly entryDraws: readonly number[],
    readonly parityOffset: number,
  ) {}

  /** The list for `frame`: the one drawn then, or the last one again. */
  frameOutput(frame: number): FrameOutput {
    return { ops: this.ops, fresh: this.opsFrame === frame };
  }

  /** Puts every field task to sleep until woken (a menu). */
  sleep(): void {
    for (const h of this.handles) h.sleepUntilWoken();
  }

  wake(): void {
    for (const h of this.handles) h.wake();
  }

  /** ccThEntryCtrl's first slice: EntryGimmick's draws (SetFood, SetMagicCircle, SetSpecialObj). */
  runEntry(ctx: FrameContext): void {
    if (this.entryDone) return;
    this.entryDone = true;
    const rng = ctx.rng.fieldrand;
    for (const n of this.entryDraws) rng.rand(n);
  }

  /** ccThFieldDisp's slice: breathes on Play(0) and Play(1), then WORLD::Draw. */
  runDisplay(ctx: FrameContext): void {
    const slice = this.slice++;
    this.ops.clear();
    this.opsFrame = ctx.frame;
    if (slice < FIRST_DRAW_SLICE) return;
    const view = this.view.next(frameParityOdd(slice, this.parityOffset));
    const env = envInto((this.env ??= envOf(view, this.height)), view, this.height);
    drawAmbient(this.state, env, this.statics, ctx.rng.fieldrand, ctx.rng.ccrand, this.ops);
    this.emitEvents(ctx);
  }

  /** Sounds and flashes also go out on the event bus (only when the list is fresh). */
  private emitEvents(ctx: FrameContext): void {
    const ops = this.ops;
    const w = ops.words;
    for (let i = 0; i < ops.length; i++) {
      const kind = ops.kind(i);
      if (kind < OP_SOUND) continue;
      const b = i * OP_STRIDE;
      const frame = ctx.frame;
      switch (kind) {
        case OP_SOUND:
          ctx.events.emit('sound', { name: `se${w[b + 2]}`, frame });
          break;
        case OP_SOUND3D:
          ctx.events.emit('sound', { name: `se${w[b + 2]}`, frame, x: value(w[b + 4]!), y: value(w[b + 5]!), z: value(w[b + 6]!) });
          break;
        case OP_HUM_START:
          ctx.events.emit('sound', { name: `se${HUM_SE}-loop-start`, frame, volume: 0 });
          break;
        case OP_HUM:
          ctx.events.emit('sound', {
            name: `se${HUM_SE}-loop`,
            frame,
            volume: value(w[b + 12]!),
            x: value(w[b + 4]!),
            y: value(w[b + 5]!),
            z: value(w[b + 6]!),
          });
          break;
        case OP_FLASH:
          ctx.events.emit('flash', { frame, intensity: (w[b + 3]! >>> 24) / 0x80 });
          break;
        default:
          break;
      }
    }
  }

  /**
   * ccThParticle's slice: the puffs effSmoke asked for this frame start (the game's particles first move in
   * the same frame's 98), and the live ones age a frame. Their newlib rand() draws are not modelled.
   */
  runParticles(ctx: FrameContext): void {
    const life = this.puffLife;
    let n = 0;
    for (let i = 0; i < life.length; i++) {
      const l = life[i]! - 1;
      if (l > 0) life[n++] = l;
    }
    life.length = n;
    if (this.opsFrame !== ctx.frame) return;
    const ops = this.ops;
    for (let i = 0; i < ops.length; i++) {
      if (ops.kind(i) !== OP_SMOKE) continue;
      this.puffsStarted++;
      life.push(ops.words[i * OP_STRIDE + 13]! | 0);
    }
  }

  save(): AmbientRuntimeSave {
    return {
      slice: this.slice,
      opsFrame: this.opsFrame,
      ops: { words: this.ops.words.slice(0, this.ops.length * OP_STRIDE), length: this.ops.length },
      state: structuredClone(this.state),
      statics: copyStatics(this.statics),
      view: this.view.save(),
      puffsStarted: this.puffsStarted,
      puffLife: [...this.puffLife],
      entryDone: this.entryDone,
    };
  }

  restore(s: unknown): void {
    // The saved state must have the live state's shape (the same field); the puff list may differ in length.
    const template = this.save();
    if (typeof s !== 'object' || s === null) throw new FormatError('piney-ambient save', -1, 'save: expected an object');
    checkShape({ ...template, puffLife: [], ops: 0 }, { ...s, puffLife: [], ops: 0 }, 'save');
    const r = s as AmbientRuntimeSave;
    if (!Array.isArray(r.puffLife) || r.puffLife.length > 1_000_000 || !r.puffLife.every((x) => Number.isInteger(x))) {
      throw new FormatError('piney-ambient save', -1, 'save.puffLife: expected a list of integers');
    }
    const ops = r.ops as unknown;
    if (
      typeof ops !== 'object' ||
      ops === null ||
      !((ops as { words?: unknown }).words instanceof Uint32Array) ||
      !Number.isInteger(r.ops.length) ||
      r.ops.length < 0 ||
      r.ops.words.length !== r.ops.length * OP_STRIDE
    ) {
      throw new FormatError('piney-ambient save', -1, 'save.ops: the words do not match the length');
    }
    this.slice = r.slice;
    this.opsFrame = r.opsFrame;
    const list = new OpList(Math.max(1, r.ops.length));
    list.words.set(r.ops.words);
    list.length = r.ops.length;
    this.ops.copyFrom(list);
    this.state = structuredClone(r.state);
    this.statics = copyStatics(r.statics);
    this.view.restore(r.view);
    this.puffsStarted = r.puffsStarted;
    this.puffLife = [...r.puffLife];
    this.entryDone = r.entryDone;
  }

  /** Numbers describing the ambient state, for the state hash. */
  hashState(): number[] {
    return [this.slice, this.opsFrame, this.ops.digest(), this.puffsStarted, this.puffLife.length, this.entryDone ? 1 : 0, ...hashAmbient(this.state, this.statics)];
  }
}

/** The five task bodies over a runtime. Only the display task carries the state (save, restore, hash). */
export function fieldTaskBodies(rt: AmbientRuntime): { name: string; priority: number; body: TaskBody }[] {
  return [
    { name: 'ccThEntryCtrl', priority: PRIORITY_ENTRY, body: { run: (ctx) => rt.runEntry(ctx) } },
    // The effect and skill tasks draw nothing of the weather; they hold the game's order for other systems.
    { name: 'ccThEffect', priority: PRIORITY_EFFECT, body: { run: () => {} } },
    { name: 'ccThSkill', priority: PRIORITY_SKILL, body: { run: () => {} } },
    {
      name: 'ccThFieldDisp',
      priority: PRIORITY_FIELD_DISPLAY,
      body: {
        run: (ctx) => rt.runDisplay(ctx),
        hashState: () => rt.hashState(),
        save: () => rt.save(),
        restore: (s) => rt.restore(s),
      },
    },
    { name: 'ccThParticle', priority: PRIORITY_PARTICLE, body: { run: (ctx) => rt.runParticles(ctx) } },
  ];
}

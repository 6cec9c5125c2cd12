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
import { checkAmbientState, checkOps, checkPuffs, checkStatics, checkWalkState, SAVE_FORMAT } from './save-check.js';
import { Saved, withPath } from '../../binary/saved-value.js';
import { markRuntimeCode } from '../runtime-code.js';

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

/**
 * Something that gives each drawn frame's view (the player's and cameras' places). Its saved state is part
 * of the display task's state: it is hashed (as plain data), saved and restored with it, so `restore` must
 * check what it is given (it may come from a file) and throw a FormatError for anything it cannot use.
 */
export interface ViewSource {
  /** The view for the next drawn frame; `odd` is the frame parity to put in it. */
  next(odd: boolean): AmbientView;
  /** Plain data (numbers, strings, booleans, arrays, objects, typed arrays): what the next views depend on. */
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
    save: (): WalkState => ({ x: walk.state.x, y: walk.state.y, heading: walk.state.heading, steps: walk.state.steps }),
    restore: (s) => {
      walk.state = checkWalkState(s);
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

  /**
   * Puts back a saved state, every field checked against the live state of this field first (see
   * save-check.ts): a bad one is a FormatError naming the path, and nothing changes. `frame` is the frame
   * being restored (the display task's slices and its list's frame cannot be later).
   */
  restore(s: unknown, frame = Number.MAX_SAFE_INTEGER): void {
    const v = new Saved(s, 'save', SAVE_FORMAT).object(['slice', 'opsFrame', 'ops', 'state', 'statics', 'view', 'puffsStarted', 'puffLife', 'entryDone']);
    const slice = v.get('slice').int(0, frame);
    const opsFrame = v.get('opsFrame').int(-1, frame);
    if (opsFrame === 0) v.get('opsFrame').fail('0 is not a frame a list is drawn in (frames start at 1; -1 for none)');
    const ops = checkOps(v.get('ops'), OP_STRIDE);
    const state = checkAmbientState(v.get('state'), this.state);
    const statics = checkStatics(v.get('statics'), this.statics);
    const puffsStarted = v.get('puffsStarted').count();
    const puffLife = checkPuffs(v.get('puffLife'));
    const entryDone = v.get('entryDone').bool();
    const r = s as AmbientRuntimeSave;
    // The view last: a custom source may change itself as it checks.
    withPath('save.view', () => this.view.restore(r.view), SAVE_FORMAT);
    this.slice = slice;
    this.opsFrame = opsFrame;
    const list = new OpList(Math.max(1, ops.length));
    list.words.set(ops.words);
    list.length = ops.length;
    this.ops.copyFrom(list);
    this.state = state;
    this.statics = statics;
    this.puffsStarted = puffsStarted;
    this.puffLife = puffLife;
    this.entryDone = entryDone;
  }

  /**
   * Numbers describing everything the next frames depend on, for the state hash: the slices, the list, the
   * puffs (each one's life), the entry flag, the ambient state and statics, and the view source's state.
   */
  hashState(): number[] {
    return [this.slice, this.opsFrame, this.ops.digest(), this.puffsStarted, this.puffLife.length, ...this.puffLife, this.entryDone ? 1 : 0, ...hashAmbient(this.state, this.statics, this.view.save())];
  }
}

/** The five task bodies over a runtime. Only the display task carries the state (save, restore, hash). */
export function fieldTaskBodies(rt: AmbientRuntime): { name: string; priority: number; body: TaskBody }[] {
  const tasks: { name: string; priority: number; body: TaskBody }[] = [
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
        restore: (s, frame) => rt.restore(s, frame),
      },
    },
    { name: 'ccThParticle', priority: PRIORITY_PARTICLE, body: { run: (ctx) => rt.runParticles(ctx) } },
  ];
  // The runtime's own code: the guard's further checks are skipped for it (runtime-code.ts).
  for (const t of tasks) markRuntimeCode(t.body);
  return tasks;
}

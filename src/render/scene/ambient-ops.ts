/**
 * The Piney field's weather as the renderer sees it: each frame's operation list (sprites, smoke puffs, masks,
 * models, sounds, the hum, the flash) that the display task (ccThFieldDisp) wrote, turned into plain drawable
 * items on the map plane.
 *
 * The list is read from the runtime the scenario installed (`ambientOf`), without copying or changing it.
 * Float fields are EE single-precision bit patterns.
 */
import { ambientOf } from '../../scenarios/piney-field.js';
import { eeToNumber } from '../../numeric/ee-float.js';
import {
  MODEL_NAMES,
  OP_FLASH,
  OP_HUM,
  OP_MASK,
  OP_MODEL,
  OP_SMOKE,
  OP_SOUND,
  OP_SOUND3D,
  OP_SPRITE,
  OP_STRIDE,
  nameOf,
} from '../../systems/piney-ambient/index.js';

/** Where the view reads the Piney weather's operations from, each drawn frame. */
export interface AmbientOpsSource {
  /**
   * The words and count of the last drawn frame's operations, the frame they were drawn in, and where the
   * weather's own viewer stands (field units; NaN when unknown): the field's tasks draw around that viewer.
   */
  read(): { words: Uint32Array; length: number; frame: number; viewX: number; viewY: number } | null;
}

const f = (bits: number): number => {
  const v = eeToNumber(bits >>> 0);
  return Number.isFinite(v) ? v : 0;
};

/** The weather's operation source of a simulation; null when its scenario installed no field weather. */
export function ambientOpsSource(sim: object): AmbientOpsSource | null {
  const rt = ambientOf(sim)?.runtime;
  if (!rt) return null;
  return {
    read() {
      if (rt.opsFrame < 0) return null;
      // The walk that stands in for the game's viewer keeps its position as EE bit patterns.
      const v = rt.view.save() as { x?: unknown; y?: unknown } | null;
      const viewX = v && typeof v.x === 'number' ? f(v.x) : NaN;
      const viewY = v && typeof v.y === 'number' ? f(v.y) : NaN;
      return { words: rt.ops.words, length: rt.ops.length, frame: rt.opsFrame, viewX, viewY };
    },
  };
}

/** One drawable thing of the weather, in field units (x, y on the ground plane, z up). */
export interface AmbientItem {
  kind: 'sprite' | 'smoke' | 'model' | 'hum' | 'sound3d';
  /** Sprite file/name or model name, e.g. "rain", "snow", "firefly", "bolt". */
  name: string;
  x: number;
  y: number;
  z: number;
  /** Sprite or puff size in field units (0 when unknown). */
  size: number;
  /** 0..1. */
  alpha: number;
}

/** One frame of the weather, decoded for drawing (decodeAmbient). */
export interface AmbientFrame {
  items: AmbientItem[];
  /** The screen flash's strength this frame, 0..1 (0 when none). */
  flash: number;
  /** Full-screen masks' alpha (smoke masks), 0..1. */
  mask: number;
  /** Sound effect numbers started this frame. */
  sounds: number[];
  /** How many items of each name. */
  counts: Record<string, number>;
}


const clamp01 = (v: number): number => (v > 1 ? 1 : v > 0 ? v : 0);

/** Decodes an operation list into drawable items (allocates; once per drawn frame). */
export function decodeAmbient(words: Uint32Array, length: number): AmbientFrame {
  const items: AmbientItem[] = [];
  const sounds: number[] = [];
  const counts: Record<string, number> = {};
  let flash = 0;
  let mask = 0;
  for (let i = 0; i < length; i++) {
    const b = i * OP_STRIDE;
    const kind = words[b]!;
    switch (kind) {
      case OP_SPRITE: {
        const name = nameOf(words[b + 3]!) || nameOf(words[b + 2]!);
        const sx = Math.abs(f(words[b + 9]!));
        const sy = Math.abs(f(words[b + 10]!));
        // The game's sprite transparency is 0 (opaque) .. 1 (clear) in most calls; keep something visible.
        const t = f(words[b + 12]!);
        items.push({ kind: 'sprite', name, x: f(words[b + 4]!), y: f(words[b + 5]!), z: f(words[b + 6]!), size: Math.max(sx, sy), alpha: clamp01(t > 1 ? t / 128 : t || 1) });
        counts[name] = (counts[name] ?? 0) + 1;
        break;
      }
      case OP_SMOKE:
        items.push({ kind: 'smoke', name: 'smoke', x: f(words[b + 4]!), y: f(words[b + 5]!), z: f(words[b + 6]!), size: Math.abs(f(words[b + 12]!)), alpha: 0.5 });
        counts['smoke'] = (counts['smoke'] ?? 0) + 1;
        break;
      case OP_MASK:
        mask = Math.max(mask, clamp01(f(words[b + 12]!) / 128));
        break;
      case OP_MODEL: {
        const what = MODEL_NAMES[words[b + 2]!] ?? 'model';
        // Column-major 4 × 4: the translation is the fourth column.
        items.push({ kind: 'model', name: what, x: f(words[b + 16]!), y: f(words[b + 17]!), z: f(words[b + 18]!), size: 0, alpha: clamp01(f(words[b + 20]!) || 1) });
        counts[what] = (counts[what] ?? 0) + 1;
        break;
      }
      case OP_SOUND:
        sounds.push(words[b + 2]!);
        break;
      case OP_SOUND3D:
        sounds.push(words[b + 2]!);
        items.push({ kind: 'sound3d', name: `se${words[b + 2]}`, x: f(words[b + 4]!), y: f(words[b + 5]!), z: f(words[b + 6]!), size: 0, alpha: 1 });
        break;
      case OP_HUM:
        items.push({ kind: 'hum', name: 'hum', x: f(words[b + 4]!), y: f(words[b + 5]!), z: f(words[b + 6]!), size: 0, alpha: clamp01(f(words[b + 12]!)) });
        counts['hum'] = (counts['hum'] ?? 0) + 1;
        break;
      case OP_FLASH:
        flash = Math.max(flash, clamp01(((words[b + 3]! >>> 24) & 0xff) / 0x80));
        break;
      default:
        break;
    }
  }
  return { items, flash, mask, sounds, counts };
}

/**
 * Opens any world file by its content: each adapter's `detect*` is asked in turn (formats with a magic or a
 * tag first), and the first that recognises the bytes loads them. Rugrats COL files have no magic, so they
 * are tried last, by parsing. To support a new format, add an entry to ADAPTERS.
 */
import { FormatError } from './binary/format-error.js';
import { detectColbin, loadColbinWorld } from './colbin/collision-world.js';
import { detectGtaCol, loadGtaWorld } from './gta/collision-world.js';
import { detectMap, detectTrak, loadLlamaWorld } from './llama/collision-world.js';
import { detectPineyField, loadPineyWorld } from './piney/collision-world.js';
import type { CollisionWorld, WorldKind } from './world.js';

export interface LoadWorldOptions {
  /** A Llama world is two files: the TRAK given as the world and this MAP. */
  map?: Uint8Array;
}

interface Adapter {
  kind: WorldKind;
  detect(bytes: Uint8Array): boolean;
  load(bytes: Uint8Array, name: string, options: LoadWorldOptions): CollisionWorld | Promise<CollisionWorld>;
}

export const ADAPTERS: Adapter[] = [
  { kind: 'piney', detect: detectPineyField, load: (b, n) => loadPineyWorld(b, n) },
  { kind: 'colbin', detect: detectColbin, load: (b, n) => loadColbinWorld(b, n) },
  { kind: 'gta', detect: detectGtaCol, load: (b, n) => loadGtaWorld(b, n) },
  {
    kind: 'llama',
    detect: detectTrak,
    load: (b, n, o) => {
      if (!o.map) throw new FormatError('llama world', -1, 'a Llama world is a TRAK and a MAP file: give the MAP too (--map FILE)');
      if (!detectMap(o.map)) throw new FormatError('llama MAP', 0, 'the file given as the MAP is not a Llama MAP');
      return loadLlamaWorld(b, o.map, n);
    },
  },
  {
    kind: 'rugrats',
    detect: () => true,
    load: async (b, n) => {
      const mod = await importOptional('./rugrats/collision-world.js');
      const load = mod?.['loadRugratsWorld'] as ((bytes: Uint8Array, name: string) => CollisionWorld) | undefined;
      if (!load) throw new FormatError('world', 0, 'not a world file this runtime recognises (Piney field spec, COLBIN, GTA COL, Llama TRAK, Rugrats COL)');
      try {
        return load(b, n);
      } catch (e) {
        if (e instanceof FormatError) {
          throw new FormatError(e.format, e.offset, `${e.detail} (no other world format recognised the file either)`);
        }
        throw e;
      }
    },
  },
];

/** Imports a module that may not exist yet in this build; undefined when it does not. */
async function importOptional(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    return (await import(/* @vite-ignore */ path)) as Record<string, unknown>;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || /Failed to load url|Cannot find module/.test(String((e as Error).message))) return undefined;
    throw e;
  }
}

/** Which adapter recognises the bytes (without loading them); "rugrats" is the fallback guess. */
export function detectWorldKind(bytes: Uint8Array): WorldKind {
  for (const a of ADAPTERS) if (a.detect(bytes)) return a.kind;
  return 'rugrats';
}

/** Loads a world file of any supported format; FormatError when the bytes are bad or unrecognised. */
export async function loadWorld(bytes: Uint8Array, name: string, options: LoadWorldOptions = {}): Promise<CollisionWorld> {
  for (const a of ADAPTERS) if (a.detect(bytes)) return a.load(bytes, name, options);
  throw new FormatError('world', 0, 'not a world file this runtime recognises');
}

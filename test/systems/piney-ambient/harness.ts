import { Scheduler } from '../../../src/ecs/scheduler.js';
import { FieldRand } from '../../../src/rng/fieldrand.js';
import { CcRand } from '../../../src/rng/ccrand.js';
import { RandomStreams } from '../../../src/rng/streams.js';
import { createEventBus, type EventBus } from '../../../src/ecs/events.js';
import { installAmbient, type AmbientConfig, type InstalledAmbient } from '../../../src/systems/piney-ambient/install.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

export interface Field {
  s: Scheduler;
  rng: { fieldrand: FieldRand; ccrand: CcRand; streams: RandomStreams };
  events: EventBus;
  inst: InstalledAmbient;
}

/** A scheduler with the field's tasks installed (ccRand initialised with 0 unless the config says). */
export function field(cfg: AmbientConfig): Field {
  const rng = { fieldrand: new FieldRand(), ccrand: new CcRand(), streams: new RandomStreams('test') };
  const events = createEventBus();
  const s = new Scheduler(rng, events);
  const inst = installAmbient(s, { ccInit: 0, tables: defaultPineyTables(), ...cfg });
  return { s, rng, events, inst };
}

/** A FieldRand that counts how many draws each call of `f` takes. */
export function drawsOf(rng: FieldRand, f: () => void): number {
  const c = rng.count;
  f();
  return rng.count - c;
}

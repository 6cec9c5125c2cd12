/** Opens the sandbox's catalog worlds in Node from assets/, as the page does from its public folder. */
import { readFileSync } from 'node:fs';
import { catalogEntry, catalogSource, openWorldBytes, variantSpecBytes } from '../../src/render/sandbox/world-catalog.js';
import type { OpenedWorld } from '../../src/replay/world-identity.js';
import { defaultPineyTables } from '../../src/node/assets.js';

export const read = (p: string): Uint8Array => new Uint8Array(readFileSync(p));

export function opener(id: string): () => Promise<OpenedWorld> {
  const e = catalogEntry(id);
  return () => {
    const bytes = variantSpecBytes(read(`assets/${e.file}`), e);
    return openWorldBytes(bytes, e.variant ? `${e.id}.field.json` : e.file, catalogSource(e), {
      ...(e.map ? { map: read(`assets/${e.map}`) } : {}),
      ...(e.placements ? { placements: read(`assets/${e.placements}`) } : {}),
      pineyTables: defaultPineyTables(),
    });
  };
}

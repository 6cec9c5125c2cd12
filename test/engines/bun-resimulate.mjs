// Run by Bun (bun.test.ts): re-simulates each replay file given from its settings and inputs, through the
// compiled runtime (dist/), and prints one JSON line per file: the hash at frame 0 and after every frame,
// and, at the first frame whose hash differs from the recorded one, the hash sections that differ (to
// bisect a determinism bug), plus the engine that ran it.
//
//   bun test/engines/bun-resimulate.mjs A.replay [B.replay ...]   (from the repository root)
import { readFileSync } from 'node:fs';
import { openBuiltinWorld, openWorldFile } from '../../dist/src/node/open-world.js';
import { hex64, readReplay } from '../../dist/src/replay/format.js';
import { parseFileSource } from '../../dist/src/replay/world-identity.js';
import { simulationFromSettings } from '../../dist/src/scenarios/builtin.js';
import { BUTTON_MASK } from '../../dist/src/systems/input.js';

const jsc = await import('bun:jsc');
const engine = { bun: process.versions.bun ?? null, webkit: process.versions.webkit ?? null, jsc: typeof jsc.heapStats === 'function' };

async function openSource(source) {
  if (source.startsWith('builtin:')) return openBuiltinWorld(source.slice('builtin:'.length));
  const { path, mapPath } = parseFileSource(source);
  return openWorldFile(path, undefined, mapPath);
}

for (const file of process.argv.slice(2)) {
  const rp = readReplay(new Uint8Array(readFileSync(file)), BUTTON_MASK);
  const opened = await openSource(rp.header.world.source);
  const sim = simulationFromSettings(opened.world, rp.header.settings);
  const names = sim.sectionNames();
  const S = names.length;
  const initial = sim.hashHex();
  const hashes = [];
  let firstDivergence = null;
  for (let i = 0; i < rp.frames.count; i++) {
    sim.step(rp.frames.inputs[i]);
    const h = sim.hashHex();
    hashes.push(h);
    if (firstDivergence === null && h !== hex64(rp.frames.hashHi[i], rp.frames.hashLo[i])) {
      const sections = sim.hash().sections;
      firstDivergence = { frame: i + 1, sections: names.filter((_, s) => sections[2 * s + 1] !== rp.frames.sections[i * S + s]) };
    }
  }
  console.log(JSON.stringify({ file, source: rp.header.world.source, engine, initial, hashes, firstDivergence }));
}

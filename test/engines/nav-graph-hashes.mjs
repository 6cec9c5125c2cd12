// Run by Node (on the main thread and in a worker thread) and by Bun (nav-engines.test.ts): the navigation
// graphs of the shipped worlds built through the compiled runtime (retrosim/core), and paths on each, as the
// FNV-1a 64 of each graph's file bytes and the paths' nodes: one from the first node to the last, and eight
// between nodes spread over the graph, each by a default search (through the coarse layer where they are far
// apart) and by a cheapest one. Prints one JSON line: { world: { graph, path, paths } }.
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort } from 'node:worker_threads';
import * as R from 'retrosim/core';
import { parseGtaPlacements } from 'retrosim/worlds/gta';

const root = new URL('../../', import.meta.url);
const read = (p) => new Uint8Array(readFileSync(new URL(p, root)));

/** Each world with a cell size that keeps the build to seconds (the GTA town and the Piney field are large). */
const WORLDS = [
  { id: 'rugrats-hand', file: 'assets/worlds/rugrats/hand.col' },
  { id: 'llama-demo', file: 'assets/worlds/llama/demo.trak', map: 'assets/worlds/llama/demo.map' },
  { id: 'colbin-demo', file: 'assets/worlds/colbin/demo.colbin' },
  { id: 'gta-town', file: 'assets/worlds/gta/town.col', placements: 'assets/worlds/gta/town.placements.json', cell: 4 },
  { id: 'piney-default', file: 'assets/worlds/piney/default.field.json', cell: 2048 },
];

export function hashes() {
  const out = {};
  for (const w of WORLDS) {
    const options = {};
    if (w.map) options.map = read(w.map);
    if (w.placements) options.placements = parseGtaPlacements(new TextDecoder().decode(read(w.placements)));
    if (w.id.startsWith('piney')) options.pineyTables = R.loadPineyTables(read('assets/piney/field-tables.json'));
    const world = R.loadWorldBytes(read(w.file), w.id, options);
    const g = R.buildNavGraph(world, R.defaultNavBody(world), w.cell === undefined ? {} : { cell: w.cell });
    const a = R.nodePosition(g, 0);
    const b = R.nodePosition(g, g.nodeCount - 1);
    const p = R.findPath(g, a, b);
    const paths = [];
    const fast = new R.PathSearch(g);
    const cheapest = new R.PathSearch(g, { cheapest: true });
    for (let k = 0; k < 8; k++) {
      const from = R.nodePosition(g, Math.floor((k * g.nodeCount) / 8));
      const to = R.nodePosition(g, g.nodeCount - 1 - Math.floor((k * g.nodeCount) / 11));
      for (const search of [fast, cheapest]) {
        const q = R.findPath(g, from, to, search);
        paths.push(q === null ? 'none' : `${q.cost}:${q.nodes.join(',')}`);
      }
    }
    out[w.id] = { graph: R.navGraphHash(g), nodes: g.nodeCount, edges: g.edgeTo.length, path: p === null ? null : p.nodes.join(','), paths: paths.join(' ') };
  }
  return out;
}

if (!isMainThread && parentPort) parentPort.postMessage(hashes());
else if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop())) process.stdout.write(JSON.stringify(hashes()) + '\n');

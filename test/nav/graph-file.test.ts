/**
 * The navigation graph and its file: built on small shipped worlds, written, read back to the same graph and
 * the same bytes; every node and edge as the walkability source says; and hostile files refused with a
 * FormatError naming what and where, without allocating for counts the bytes cannot hold.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { FormatError } from '../../src/binary/format-error.js';
import { crc32 } from '../../src/binary/crc32.js';
import { buildNavGraph, NAV_DIRECTIONS, nodeAt, nodePosition, type NavGraph } from '../../src/nav/graph.js';
import { parseNavGraph, writeNavGraph, navGraphHash, NAV_VERSION } from '../../src/nav/graph-file.js';
import { defaultNavBody } from '../../src/nav/walk.js';
import { walkSourceOf } from '../../src/nav/walk-source.js';
import type { CollisionWorld } from '../../src/worlds/world.js';

let world: CollisionWorld;
let graph: NavGraph;
let bytes: Uint8Array;

beforeAll(async () => {
  world = (await openBuiltinWorld('rugrats-hand')).world;
  graph = buildNavGraph(world, defaultNavBody(world));
  bytes = writeNavGraph(graph);
});

/** `b` with the CRC at its end made right again (so that the checks behind the CRC are reached). */
function withCrc(b: Uint8Array): Uint8Array {
  const out = b.slice();
  new DataView(out.buffer).setUint32(out.length - 4, crc32(out, 0, out.length - 4), true);
  return out;
}

/** The FormatError parsing `b` throws. */
function refusal(b: Uint8Array): FormatError {
  try {
    parseNavGraph(b);
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw e;
  }
  throw new Error('parsed');
}

const TAG_AT = 76;
const nodesAt = (g: NavGraph) => TAG_AT + 4 + new TextEncoder().encode(g.tag).length;

describe('the navigation graph', () => {
  it('holds every standing place of the walkability source, and an edge exactly where a walk arrives at a node', () => {
    const src = walkSourceOf(world, defaultNavBody(world));
    const { n0, n1 } = graph.grid;
    let nodes = 0;
    for (let c = 0; c < n0 * n1; c++) {
      const stands = src.stands(c % n0, Math.floor(c / n0));
      expect(graph.cellStart[c + 1]! - graph.cellStart[c]!).toBe(stands.length);
      stands.forEach((p, k) => expect(nodePosition(graph, graph.cellStart[c]! + k)).toEqual(p));
      nodes += stands.length;
    }
    expect(graph.nodeCount).toBe(nodes);
    for (let a = 0; a < graph.nodeCount; a++) {
      const c = graph.cellOf[a]!;
      const i = c % n0, j = Math.floor(c / n0);
      const want: number[] = [];
      for (const [di, dj] of NAV_DIRECTIONS) {
        if (i + di < 0 || j + dj < 0 || i + di >= n0 || j + dj >= n1) continue;
        const at = src.step(nodePosition(graph, a), i + di, j + dj);
        const b = at === null ? -1 : nodeAt(graph, i + di + (j + dj) * n0, at);
        if (b >= 0) want.push(b);
      }
      expect([...graph.edgeTo.subarray(graph.edgeStart[a]!, graph.edgeStart[a + 1]!)]).toEqual(want);
    }
    expect(graph.edgeTo.length).toBeGreaterThan(graph.nodeCount);
  });

  it('is written and read back to the same graph and the same bytes', () => {
    const back = parseNavGraph(bytes);
    expect(back).toEqual(graph);
    expect(writeNavGraph(back)).toEqual(bytes);
    expect(navGraphHash(back)).toBe(navGraphHash(graph));
    expect(bytes.subarray(0, 4)).toEqual(new TextEncoder().encode('RNAV'));
    expect(new DataView(bytes.buffer).getUint16(4, true)).toBe(NAV_VERSION);
  });

  it('a graph built again is the same to the byte', () => {
    expect(writeNavGraph(buildNavGraph(world, defaultNavBody(world)))).toEqual(bytes);
  });
});

describe('hostile graph files', () => {
  it('refuses a wrong magic, version, kind, a short file and trailing bytes, naming what and where', () => {
    const m = bytes.slice();
    m[0] = 0x58;
    expect(refusal(m).message).toMatch(/nav graph: magic "XNAV" is not "RNAV" \(at offset 0/);
    const v = bytes.slice();
    v[4] = 9;
    expect(refusal(withCrc(v)).message).toMatch(/version 9 is not 1.*offset 4/);
    const k = bytes.slice();
    k[6] = 7;
    expect(refusal(withCrc(k)).message).toMatch(/world kind 7 is not one of 0..4.*offset 6/);
    expect(refusal(bytes.subarray(0, 40)).message).toMatch(/a file of 40 bytes is shorter/);
    expect(refusal(bytes.subarray(0, bytes.length - 9)).offset).toBeGreaterThan(0);
    const t = new Uint8Array(bytes.length + 1);
    t.set(bytes);
    expect(refusal(t).message).toMatch(/CRC-32/);
  });

  it('refuses a changed byte by its CRC, and what lies behind the CRC when the CRC is made right', () => {
    const flip = bytes.slice();
    flip[nodesAt(graph) + 10] ^= 1;
    expect(refusal(flip).message).toMatch(/CRC-32 0x[0-9a-f]+ does not match/);
    // A node moved off its cell's centre.
    const off = bytes.slice();
    const first = nodesAt(graph) + 4;
    new DataView(off.buffer).setFloat64(first + 4, new DataView(off.buffer).getFloat64(first + 4, true) + 1, true);
    expect(refusal(withCrc(off)).message).toMatch(/node 0: position is not the centre of its cell/);
    // A non-finite coordinate.
    const nan = bytes.slice();
    new DataView(nan.buffer).setFloat64(first + 12, NaN, true);
    expect(refusal(withCrc(nan)).message).toMatch(/node 0 y NaN is not finite/);
    // Cells out of order.
    const order = bytes.slice();
    new DataView(order.buffer).setUint32(first, 5, true);
    expect(refusal(withCrc(order)).message).toMatch(/node 1: cell \d+ comes after cell 5|node 0: position is not the centre/);
    // An edge to a node that is not in a neighbouring cell.
    const edges = bytes.slice();
    const targets = bytes.length - 4 - graph.edgeTo.length * 4;
    new DataView(edges.buffer).setUint32(targets, graph.nodeCount - 1, true);
    expect(refusal(withCrc(edges)).message).toMatch(/node 0: edge to node \d+, whose cell is not a neighbour/);
    const past = bytes.slice();
    new DataView(past.buffer).setUint32(targets, graph.nodeCount + 5, true);
    expect(refusal(withCrc(past)).message).toMatch(new RegExp(`edge to node ${graph.nodeCount + 5}, past the ${graph.nodeCount} nodes`));
  });

  it('refuses counts the bytes cannot hold before allocating for them', () => {
    const huge = bytes.slice();
    new DataView(huge.buffer).setUint32(nodesAt(graph), 0x7fffffff, true);
    expect(refusal(withCrc(huge)).message).toMatch(/nodes: count 2147483647 exceeds the limit|do not fit/);
    const grid = bytes.slice();
    new DataView(grid.buffer).setUint32(36, 0xffffffff, true);
    new DataView(grid.buffer).setUint32(40, 0xffffffff, true);
    expect(refusal(withCrc(grid)).message).toMatch(/grid of 4294967295 × 4294967295 cells passes the limit.*offset 36/);
    const tag = bytes.slice();
    new DataView(tag.buffer).setUint32(TAG_AT, 5000, true);
    expect(refusal(withCrc(tag)).message).toMatch(/tag length 5000 passes the limit of 1024/);
    const cell = bytes.slice();
    new DataView(cell.buffer).setFloat64(28, -1, true);
    expect(refusal(withCrc(cell)).message).toMatch(/grid cell -1 is not > 0.*offset 28/);
  });
});

/**
 * `retrosim nav`: build writes a graph file that reads back to the graph the API builds (the same hash); path
 * reads it and prints the path findPath finds, walked to the bit (the cheapest with --cheapest, where the
 * default is dearer); --smooth keeps the ends and shortens the points; hostile graph files and bad arguments are one-line errors with the CLI's exit codes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { buildNavGraph, nodePosition } from '../../src/nav/graph.js';
import { navGraphHash, parseNavGraph } from '../../src/nav/graph-file.js';
import { findPath, PathSearch } from '../../src/nav/path.js';
import { defaultNavBody } from '../../src/nav/walk.js';
import type { Vec3 } from '../../src/worlds/world.js';

const dir = mkdtempSync(join(tmpdir(), 'retrosim-nav-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('retrosim nav', () => {
  it('build writes the graph the API builds; path prints the path findPath finds, smoothed on request', async () => {
    const file = join(dir, 'colbin.nav');
    const b = runCli(['nav', 'build', 'colbin-demo', '--out', file, '--json']);
    expect(b.code, b.stderr).toBe(0);
    const built = JSON.parse(b.stdout);
    const { world } = await openBuiltinWorld('colbin-demo');
    const g = buildNavGraph(world, defaultNavBody(world));
    expect(built.hash).toBe(navGraphHash(g));
    expect(built.nodes).toBe(g.nodeCount);
    expect(navGraphHash(parseNavGraph(new Uint8Array(readFileSync(file))))).toBe(built.hash);

    const a = nodePosition(g, 3);
    const z = nodePosition(g, g.nodeCount - 5);
    const want = findPath(g, a, z)!;
    const r = runCli(['nav', 'path', 'colbin-demo', ...a.map(String), ...z.map(String), '--graph', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout);
    expect(got.found).toBe(true);
    expect(got.cost).toBe(want.cost);
    expect(got.points).toEqual(want.points);
    const s = JSON.parse(runCli(['nav', 'path', 'colbin-demo', ...a.map(String), ...z.map(String), '--graph', file, '--smooth', '--json']).stdout);
    expect(s.points[0]).toEqual(want.points[0]);
    expect(s.points[s.points.length - 1]).toEqual(want.points[want.points.length - 1]);
    expect(s.points.length).toBeLessThan(want.points.length);
    expect(s.length).toBeLessThanOrEqual(got.length);
  }, 120_000);

  it('path --cheapest finds the cheapest path where the default search, through the coarse layer, costs more', async () => {
    const file = join(dir, 'piney.nav');
    expect(runCli(['nav', 'build', 'piney-default', '--out', file]).code).toBe(0);
    const g = parseNavGraph(new Uint8Array(readFileSync(file)));
    const fast = new PathSearch(g);
    const cheapest = new PathSearch(g, { cheapest: true });
    // The first of a fixed run of far pairs whose default path costs more than the cheapest.
    let pair: [Vec3, Vec3] | null = null;
    for (let k = 1; k < 200 && pair === null; k++) {
      const a = nodePosition(g, (k * 7919) % g.nodeCount);
      const z = nodePosition(g, (k * 104729) % g.nodeCount);
      const p = findPath(g, a, z, fast);
      const q = findPath(g, a, z, cheapest);
      if (p && q && p.cost > q.cost) pair = [a, z];
    }
    expect(pair).not.toBeNull();
    const [a, z] = pair!;
    const args = ['nav', 'path', 'piney-default', ...a.map(String), ...z.map(String), '--graph', file, '--json'];
    const d = JSON.parse(runCli(args).stdout);
    const c = JSON.parse(runCli([...args, '--cheapest']).stdout);
    expect(d.cost).toBe(findPath(g, a, z, fast)!.cost);
    expect(c.cost).toBe(findPath(g, a, z, cheapest)!.cost);
    expect(c.cost).toBeLessThan(d.cost);
    expect(c.points).toEqual(findPath(g, a, z, cheapest)!.points);
  }, 180_000);

  it('refuses bad arguments and hostile graph files in one line, with the exit codes', () => {
    const u = runCli(['nav', 'path', 'colbin-demo', '1', '2', '--json']);
    expect(u.code).toBe(2);
    expect(JSON.parse(u.stdout).error.kind).toBe('usage');
    expect(runCli(['nav', 'fly', 'colbin-demo']).code).toBe(2);
    const bad = join(dir, 'bad.nav');
    writeFileSync(bad, 'RNAV but not a graph at all, nothing here is right.............................................');
    const f = runCli(['nav', 'path', 'colbin-demo', '0', '0', '0', '1', '1', '1', '--graph', bad, '--json']);
    expect(f.code).toBe(1);
    const e = JSON.parse(f.stdout).error;
    expect(e.kind).toBe('format');
    expect(e.file).toBe(bad);
    expect(e.message).toMatch(/^nav graph: /);
    expect(f.stderr.trim().split('\n')).toHaveLength(1);
    // A graph of another world.
    const other = join(dir, 'rug.nav');
    expect(runCli(['nav', 'build', 'rugrats-hand', '--out', other]).code).toBe(0);
    const w = runCli(['nav', 'path', 'colbin-demo', '0', '0', '0', '1', '1', '1', '--graph', other]);
    expect(w.code).toBe(1);
    expect(w.stderr).toMatch(/the graph is of another world \(a rugrats grid/);
    // A graph of this world on other cells: named as such, with what to do.
    const coarse = join(dir, 'coarse.nav');
    expect(runCli(['nav', 'build', 'colbin-demo', '--cell', '128', '--out', coarse]).code).toBe(0);
    const c = runCli(['nav', 'path', 'colbin-demo', '0', '0', '0', '1', '1', '1', '--graph', coarse, '--cell', '64']);
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/the graph is on cells of 128, not the 64 asked for \(build one with --cell 64 --out FILE/);
    expect(c.stderr.trim().split('\n')).toHaveLength(1);
  }, 120_000);
});

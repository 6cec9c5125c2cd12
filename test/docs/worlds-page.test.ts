/**
 * docs/worlds.md shows every shipped world, and each map on it is exactly what `retrosim world map ID`
 * prints for that world now (so a change of a world or of the map's rules shows up here).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorld } from '../../src/index.js';
import { cellMap, cellMapText } from '../../src/render/scene/cell-map.js';
import { BUILTIN_WORLD_CATALOG } from '../../src/worlds/builtin.js';
import { repoRoot, runCli } from '../cli/run-cli.js';

const page = readFileSync(join(repoRoot, 'docs/worlds.md'), 'utf8');
const maps = new Map([...page.matchAll(/<!-- world map: ([\w-]+) -->\n```text\n([\s\S]*?)\n```/g)].map((m) => [m[1]!, m[2]!]));

describe('docs/worlds.md', () => {
  it('has a map for every shipped world, and no other', () => {
    expect([...maps.keys()].sort()).toEqual(BUILTIN_WORLD_CATALOG.map((e) => e.id).sort());
  });

  it.each(BUILTIN_WORLD_CATALOG.map((e) => e.id))('%s: the map is the one the world gives now', async (id) => {
    const { world } = await openWorld(id);
    expect(maps.get(id)).toBe(cellMapText(cellMap(world), id));
  });

  it('the command prints the same map, and marks what the Llama level holds where it holds it', () => {
    const r = runCli(['world', 'map', 'llama-demo']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd()).toBe(maps.get('llama-demo'));
    const rows = maps.get('llama-demo')!.split('\n').slice(2, 7).map((l) => l.slice(5));
    expect(rows[3]![2]).toBe('X'); // the death plane tile (x 2, z 3)
    expect(rows[4]![5]).toBe('E'); // the exit tile (x 5, z 4)
    const j = JSON.parse(runCli(['world', 'map', 'llama-demo', '--json']).stdout) as { columns: number; rows: number; lines: string[] };
    expect([j.columns, j.rows]).toEqual([6, 5]);
    expect(j.lines.map((l) => l)).toEqual(rows.map((l) => l.padEnd(6)));
  });
});

import { describe, expect, test } from 'vitest';
import { AUTO_AGENTS, autoAgents, CATALOG, catalogEntry, catalogSource, entryForSource, variantSpecBytes } from '../../../src/render/sandbox/world-catalog.js';
import { openBuiltinWorld, openWorldFile } from '../../../src/node/open-world.js';
import { BUILTIN_WORLD_CATALOG } from '../../../src/worlds/builtin.js';
import { opener, read } from '../helpers.js';

describe('world catalog', () => {
  test('every world the sandbox lists is a built-in world of the runtime, named by its id', () => {
    expect(CATALOG.map((e) => e.id)).toEqual(BUILTIN_WORLD_CATALOG.map((e) => e.id));
    for (const e of CATALOG) expect(catalogSource(e)).toBe(`builtin:${e.id}`);
    for (const e of CATALOG) expect(entryForSource(catalogSource(e))).toBe(e);
    expect(() => catalogEntry('nope')).toThrow(/piney-default/);
  });

  test.each(CATALOG.map((e) => e.id))('%s: the page opens the same world, with the same identity, as Node', async (id) => {
    const e = catalogEntry(id);
    const page = await opener(id)();
    const src = catalogSource(e);
    const node = src.startsWith('builtin:')
      ? await openBuiltinWorld(src.slice(8), read)
      : await openWorldFile(src.slice(5).split(';map:')[0]!, read, src.split(';map:')[1]);
    expect(page.identity).toEqual(node.identity);
    expect(page.world.kind).toBe(node.world.kind);
    expect(page.world.bounds).toEqual(node.world.bounds);
  });

  test('a variant is the base field spec with another type and weather row', () => {
    const e = catalogEntry('piney-storm');
    const base = read(`assets/${e.file}`);
    const spec = JSON.parse(new TextDecoder().decode(variantSpecBytes(base, e)));
    const orig = JSON.parse(new TextDecoder().decode(base));
    expect(spec).toEqual({ ...orig, type: 10, weather: 7, name: `${orig.name} (storm at night)` });
    expect(variantSpecBytes(base, catalogEntry('piney-default'))).toBe(base);
    const t = JSON.parse(new TextDecoder().decode(variantSpecBytes(base, catalogEntry('piney-traveller'))));
    expect(t).toEqual({ ...orig, seed: 1420856, type: 10, weather: 0, name: `${orig.name} (the traveller)` });
  });

  test('the sandbox\'s own agent count: one per 4 m² of the map, from 8 to 300', async () => {
    const counts: Record<string, number> = {};
    for (const e of CATALOG) {
      const w = (await opener(e.id)()).world;
      const n = autoAgents(w);
      expect(n).toBeGreaterThanOrEqual(AUTO_AGENTS.min);
      expect(n).toBeLessThanOrEqual(AUTO_AGENTS.max);
      counts[e.id] = n;
    }
    // The small demo levels get a readable crowd; the field and the town the runtime's 300.
    expect(counts['rugrats-hand']).toBe(8);
    expect(counts['rugrats-demo']).toBeLessThan(60);
    expect(counts['llama-demo']).toBeLessThan(60);
    expect(counts['colbin-demo']).toBeLessThan(60);
    expect(counts['piney-default']).toBe(300);
    expect(counts['gta-town']).toBe(300);
    expect(autoAgents({ bounds: { min: [0, 0, 0], max: [Infinity, 1, 1] }, up: { axis: 1, sign: 1 }, scale: 1 })).toBe(300);
  });
});

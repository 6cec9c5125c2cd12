/**
 * The page's first world, opened with real sessions: should the simulation refuse the settings a link
 * asked for (the link check should have caught them, so these tests hand them over directly), the page
 * reports it and shows the link's world with its defaults; should a world not open, the default world.
 */
import { describe, expect, test } from 'vitest';
import { openFirstWorld, type FirstWorldHost } from '../../../src/render/sandbox/first-world.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import type { ScenarioSettings } from '../../../src/sim/scenario.js';
import { opener } from '../helpers.js';

/** A page in miniature: the settings the link gave, the session shown, the banner's lines. */
function page(settings: Partial<ScenarioSettings>) {
  const p = {
    settings: { ...settings },
    session: null as SandboxSession | null,
    opened: [] as string[],
    banner: [] as string[],
  };
  const host: FirstWorldHost = {
    open: async (id) => {
      p.opened.push(id);
      p.session = await SandboxSession.create(opener(id), p.settings);
    },
    dropLinkSettings: () => {
      const had = Object.keys(p.settings).length > 0;
      p.settings = {};
      return had;
    },
    report: (line) => p.banner.push(line),
  };
  return { p, host };
}

describe('the first world', () => {
  test('settings the simulation refuses: reported with the value and the limit, the world opens with its defaults', async () => {
    const { p, host } = page({ agents: 100_000, ccRandInit: 5 });
    expect(await openFirstWorld(host, 'rugrats-demo', 'piney-default')).toBe('rugrats-demo');
    expect(p.opened).toEqual(['rugrats-demo', 'rugrats-demo']);
    expect(p.session!.sim.world.kind).toBe('rugrats');
    expect(p.session!.settings.agents).toBe(300);
    expect(p.session!.settings.ccRandInit).toBe(0);
    expect(p.settings).toEqual({});
    expect(p.banner).toHaveLength(1);
    expect(p.banner[0]).toMatch(/^the simulation refused the link's settings \(setting agents must be an integer in 0\.\.4094, got 100000\); the world's default settings are used$/);
  });

  test('good settings are kept and nothing is reported', async () => {
    const { p, host } = page({ agents: 7, ccRandInit: 3 });
    expect(await openFirstWorld(host, 'colbin-demo', 'piney-default')).toBe('colbin-demo');
    expect(p.opened).toEqual(['colbin-demo']);
    expect(p.session!.settings).toMatchObject({ agents: 7, ccRandInit: 3 });
    expect(p.banner).toEqual([]);
  });

  test('a world that does not open: the default world, reported', async () => {
    const { p, host } = page({ agents: 5 });
    const realOpen = host.open;
    host.open = (id) => (id === 'colbin-demo' ? Promise.reject(new Error('cannot fetch worlds/colbin/demo.colbin: HTTP 404')) : realOpen(id));
    expect(await openFirstWorld(host, 'colbin-demo', 'rugrats-demo')).toBe('rugrats-demo');
    expect(p.session!.sim.world.kind).toBe('rugrats');
    expect(p.banner).toEqual(['cannot open colbin-demo (cannot fetch worlds/colbin/demo.colbin: HTTP 404); showing the default world with its default settings']);
  });

  test('nothing opens: each reason is reported and the answer is null, not a throw', async () => {
    const { p, host } = page({});
    host.open = (id) => Promise.reject(new Error(`no ${id}`));
    expect(await openFirstWorld(host, 'a', 'b')).toBeNull();
    expect(p.banner).toEqual(['cannot open a (no a), nor the default world b (no b)']);
    const same = page({});
    same.host.open = (id) => Promise.reject(new Error(`no ${id}`));
    expect(await openFirstWorld(same.host, 'b', 'b')).toBeNull();
    expect(same.p.banner).toEqual(['cannot open b: no b']);
  });
});

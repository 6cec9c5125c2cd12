/**
 * What the page's actions do: every action of the shortcut table is handled and leaves the link written;
 * Escape closes the help before it clears the selection; replay keys do nothing live; rays cycle; speeds stop
 * at the ends.
 */
import { describe, expect, test } from 'vitest';
import { nextRays, runAction, type ActionHost } from '../../../src/render/sandbox/page-actions.js';
import { SHORTCUTS, type PageAction } from '../../../src/render/sandbox/shortcuts.js';
import { RAY_DENSITIES, type RayDensity } from '../../../src/render/scene/view-link.js';

/** A page in plain fields, recording what was asked of it. */
function page(replay: { frame: number; length: number } | null = null) {
  const did: string[] = [];
  const toggles = {
    helpShown: false,
    heat: false,
    rays: 'few' as RayDensity,
    legend: true,
    overlay: true,
    showHelp: (on: boolean) => {
      toggles.helpShown = on;
    },
    setHeat: (on: boolean) => {
      toggles.heat = on;
    },
    setRays: (d: RayDensity) => {
      toggles.rays = d;
    },
    setLegend: (on: boolean) => {
      toggles.legend = on;
    },
    setOverlay: (on: boolean) => {
      toggles.overlay = on;
    },
    toggleMute: () => did.push('mute'),
    screenWalk: false,
    setScreenWalk: (on: boolean) => {
      toggles.screenWalk = on;
    },
  };
  const p = {
    did,
    toggles,
    paused: false,
    speedNow: 1,
    clearSelection: () => did.push('clear'),
    sendArmed: false,
    cancelSend: () => {
      const was = p.sendArmed;
      p.sendArmed = false;
      if (was) did.push('stop sending');
      return was;
    },
    stepForward: () => did.push('step'),
    replay: () => replay,
    seek: (f: number) => did.push(`seek ${f}`),
    speed: () => p.speedNow,
    setSpeed: (s: number) => {
      p.speedNow = s;
    },
    camera: () => ({ zoomAt: (f: number) => did.push(`zoom ${f}`), follow: () => did.push('follow') }),
    overview: () => did.push('overview'),
    syncUrl: () => did.push('url'),
  };
  return p satisfies ActionHost;
}

/** What the page shows, to tell whether an action changed it. */
const looks = (p: ReturnType<typeof page>): string => JSON.stringify({ t: p.toggles, paused: p.paused, speed: p.speedNow });

describe('page actions', () => {
  test('every action in the shortcut table does something, then writes the link', () => {
    const actions = [...new Set(SHORTCUTS.flatMap((s) => (s.action ? [s.action] : [])))];
    expect(actions.length).toBeGreaterThan(15);
    for (const a of actions) {
      const p = page({ frame: 10, length: 100 });
      const before = looks(p);
      runAction(a, p);
      expect(p.did.length > 1 || looks(p) !== before, a).toBe(true);
      expect(p.did[p.did.length - 1], a).toBe('url');
    }
  });

  test('G turns walking relative to the screen on and off', () => {
    const p = page();
    runAction('walk-mode', p);
    expect(p.toggles.screenWalk).toBe(true);
    runAction('walk-mode', p);
    expect(p.toggles.screenWalk).toBe(false);
  });

  test('Escape closes the help first, then stops choosing where to send, then clears the selection', () => {
    const p = page();
    p.sendArmed = true;
    runAction('help', p);
    expect(p.toggles.helpShown).toBe(true);
    runAction('close', p);
    expect(p.toggles.helpShown).toBe(false);
    const did = () => p.did.filter((d) => d !== 'url');
    expect(did()).toEqual([]);
    runAction('close', p);
    expect(did()).toEqual(['stop sending']);
    runAction('close', p);
    expect(did()).toEqual(['stop sending', 'clear']);
  });

  test('replay keys: nothing live; one back stops at frame 0 and pauses; Home and End go to the ends', () => {
    const live = page();
    for (const a of ['step-back', 'first-frame', 'last-frame'] as PageAction[]) runAction(a, live);
    expect(live.did.filter((d) => d !== 'url')).toEqual([]);
    const start = page({ frame: 0, length: 50 });
    runAction('step-back', start);
    expect(start.did.filter((d) => d !== 'url')).toEqual([]);
    const mid = page({ frame: 20, length: 50 });
    runAction('step-back', mid);
    runAction('first-frame', mid);
    runAction('last-frame', mid);
    expect(mid.paused).toBe(true);
    expect(mid.did.filter((d) => d !== 'url')).toEqual(['seek 19', 'seek 0', 'seek 50']);
  });

  test('rays cycle through every density; speeds stop at the ends', () => {
    let d: RayDensity = 'off';
    const seen: RayDensity[] = [];
    for (let i = 0; i < RAY_DENSITIES.length; i++) seen.push((d = nextRays(d)));
    expect(seen).toEqual(['few', 'many', 'all', 'off']);
    const p = page();
    for (let i = 0; i < 10; i++) runAction('faster', p);
    expect(p.speedNow).toBe(8);
    for (let i = 0; i < 10; i++) runAction('slower', p);
    expect(p.speedNow).toBe(0.25);
  });
});

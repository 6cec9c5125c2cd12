/** `retrosim world` and `retrosim los` (the built CLI: npm test builds first). */
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { newSegmentResult } from '../../src/worlds/world.js';
import { DEMO_KINDS, demoPath } from './demo-worlds.js';

const json = (args: string[]) => {
  const r = runCli(args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe('retrosim world', () => {
  it('info recognises every demo world by content and names the files read', () => {
    for (const kind of DEMO_KINDS) {
      const info = json(['world', 'info', demoPath(kind), '--json']);
      const w = loadWorldFile(demoPath(kind)).world;
      expect(info.kind).toBe(kind);
      expect(info.up).toEqual(w.up);
      expect(info.spawn).toEqual(w.spawnPoint());
      expect(info.files[0]).toBe(demoPath(kind));
      if (kind === 'llama') expect(info.files[1]).toMatch(/demo\.map$/);
    }
  });

  it('segment and ground answer what the world answers', () => {
    const path = demoPath('rugrats');
    const w = loadWorldFile(path).world;
    const seg = json(['world', 'segment', path, '1536', '-300', '1536', '1536', '-300', '9000', '--json']);
    const r = w.segment([1536, -300, 1536], [1536, -300, 9000], newSegmentResult());
    expect(seg).toMatchObject({ hit: r.hit, fraction: r.fraction, point: r.point, id: r.id, what: r.what });
    const g = json(['world', 'ground', path, '1536', '-300', '1536', '--json']);
    expect(g.hasFloor).toBe(true);
    expect(g.floor).toBe(w.ground([1536, -300, 1536]).floor);
  });

  it('move repeats the step and lists the contacts per step', () => {
    const out = json(['world', 'move', demoPath('gta'), '0', '0', '0', '0.5', '0', '-0.1', '--steps', '3', '--json']);
    expect(out.steps).toBe(3);
    expect(out.position[0]).toBeCloseTo(1.5, 9);
    expect(out.grounded).toBe(true);
    expect(out.contacts.map((c: { step: number }) => c.step)).toEqual([1, 2, 3]);
  });

  it('usage errors exit 2 with one line; a file no format recognises exits 1', () => {
    for (const args of [['world'], ['world', 'fly', 'x'], ['world', 'ground', demoPath('gta'), '1', '2']]) {
      const r = runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const r = runCli(['world', 'info', new URL('../../package.json', import.meta.url).pathname]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a world file/);
  });
});

describe('retrosim los', () => {
  it('prints segments per second and a checksum that is the same for 1 and 2 threads', () => {
    for (const kind of ['rugrats', 'gta'] as const) {
      const one = json(['los', '--world', demoPath(kind), '--agents', '60', '--frames', '5', '--json']);
      const two = json(['los', '--world', demoPath(kind), '--agents', '60', '--frames', '5', '--threads', '2', '--json']);
      expect(one.segments).toBeGreaterThan(0);
      expect(one.segmentsPerSecond).toBeGreaterThan(0);
      expect(one.matrixMs).toBeGreaterThan(0);
      expect(two.matrixMs).toBeGreaterThan(0);
      expect(one.checksum).toMatch(/^0x[0-9a-f]{16}$/);
      expect(two.checksum).toBe(one.checksum);
      expect(two.segments).toBe(one.segments);
      expect(two.visible).toBe(one.visible);
      // Another seed scatters the agents differently: another checksum.
      const other = json(['los', '--world', demoPath(kind), '--agents', '60', '--frames', '5', '--seed', 'other', '--json']);
      expect(other.checksum).not.toBe(one.checksum);
    }
  });

  it('needs --world', () => {
    const r = runCli(['los', '--agents', '5']);
    expect(r.code).toBe(2);
  });
});

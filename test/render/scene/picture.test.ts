/**
 * Pictures of worlds (render/scene/picture.ts through `retrosim world png`): every demo world is drawn with its
 * ground, overlay, scale bar and legend; agents and their sight appear when asked for; the same input gives the
 * same pixels; bad arguments are usage errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { niceLength, worldPicture } from '../../../src/render/scene/picture.js';
import { loadWorldFile } from '../../../src/node/world-files.js';
import { createSimulation } from '../../../src/scenarios/builtin.js';
import { BACKGROUND_RGB } from '../../../src/render/scene/ground-raster.js';
import { runCli } from '../../cli/run-cli.js';
import { tempDir } from '../../setup/temp-dir.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const DEMOS = ['rugrats/demo.col', 'llama/demo.trak', 'colbin/demo.colbin', 'gta/town.col', 'piney/default.field.json'].map((p) => root + 'assets/worlds/' + p);

function count(png: PNG, x0: number, y0: number, x1: number, y1: number, pred: (r: number, g: number, b: number) => boolean): number {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    const o = (y * png.width + x) * 4;
    if (pred(png.data[o]!, png.data[o + 1]!, png.data[o + 2]!)) n++;
  }
  return n;
}

describe('world pictures', () => {
  it('niceLength picks 1, 2 or 5 × 10^k at or below the target', () => {
    expect([0.7, 1, 1.9, 2, 4.99, 5, 9.9, 37, 180].map(niceLength)).toEqual([0.5, 1, 1, 2, 2, 5, 5, 20, 100]);
  });

  for (const path of DEMOS) {
    const name = path.split('/').slice(-2).join('/');
    it(`${name}: ground, overlay, scale bar and legend; agents and sight with --agents`, { timeout: 60_000 }, () => {
      const dir = tempDir('retrosim-png-');
      const plain = runCli(['world', 'png', path, '--out', join(dir, 'a.png'), '--size', '256', '--json']);
      expect(plain.code, plain.stderr).toBe(0);
      const info = JSON.parse(plain.stdout);
      const a = PNG.sync.read(readFileSync(join(dir, 'a.png')));
      expect([a.width, a.height]).toEqual([info.width, info.height]);
      expect(Math.max(a.width, a.height - 60)).toBeGreaterThanOrEqual(256);
      const mapH = a.height - 60;
      const bg = (r: number, g: number, b: number) => r === BACKGROUND_RGB[0] && g === BACKGROUND_RGB[1] && b === BACKGROUND_RGB[2];
      // The ground fills much of the map; the footer holds the white scale bar and the legend's text.
      expect(count(a, 0, 0, a.width, mapH, (r, g, b) => !bg(r, g, b))).toBeGreaterThan(a.width * mapH * 0.2);
      expect(count(a, 0, mapH, a.width, a.height, (r, g, b) => r === 255 && g === 255 && b === 255)).toBeGreaterThan(20);
      expect(info.legend.length).toBeGreaterThan(1);
      expect(info.scaleBarMetres).toBeGreaterThan(0);
      const withAgents = runCli(['world', 'png', path, '--out', join(dir, 'b.png'), '--size', '256', '--agents', '30', '--frames', '8', '--json']);
      expect(withAgents.code, withAgents.stderr).toBe(0);
      const bi = JSON.parse(withAgents.stdout);
      expect([bi.agents, bi.frames]).toEqual([30, 8]);
      expect(bi.legend).toContain('sight ray');
      const b = PNG.sync.read(readFileSync(join(dir, 'b.png')));
      // Agents are drawn in their sandbox colours (cyan wanderers, yellow or green watchers, the red player).
      const agentish = (r: number, g: number, bb: number) => (r === 0x80 && g === 0xde && bb === 0xea) || (r === 0xff && g === 0xea && bb === 0) || (r === 0x76 && g === 0xff && bb === 3) || (r === 0xff && g === 0x3d && bb === 0);
      expect(count(b, 0, 0, b.width, mapH, agentish)).toBeGreaterThan(count(a, 0, 0, a.width, mapH, agentish) + 10);
    });
  }

  it('the same world and simulation state give the same pixels', () => {
    const world = loadWorldFile(DEMOS[0]!).world;
    const one = (): Uint8ClampedArray => {
      const sim = createSimulation(world, { agents: 12 });
      for (let f = 0; f < 10; f++) sim.step(0);
      return worldPicture(world, { size: 128, sim }).rgba;
    };
    expect(Buffer.from(one()).equals(Buffer.from(one()))).toBe(true);
  });

  it('bad arguments are usage errors', () => {
    const dir = tempDir('retrosim-png-');
    expect(runCli(['world', 'png', DEMOS[0]!, '--out', join(dir, 'x.jpg')]).code).toBe(2);
    expect(runCli(['world', 'png', DEMOS[0]!, '--out', join(dir, 'x.png'), '--frames', '3']).code).toBe(2);
    expect(runCli(['world', 'png', DEMOS[0]!, '--out', join(dir, 'x.png'), '--size', '5']).code).toBe(2);
    expect(runCli(['world', 'png', DEMOS[0]!, '--out', DEMOS[0]!.replace('.col', '.png'), '--agents', '-1']).code).toBe(2);
  });
});

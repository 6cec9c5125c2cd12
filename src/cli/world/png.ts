/**
 * `retrosim world png FILE --out OUT.png [--size N] [--agents N --frames F]`: a top-down picture of any world
 * (the sandbox's pure scene data, drawn without pixi.js), optionally with a simulation's agents and their sight.
 */
import { PNG } from 'pngjs';
import { worldPicture } from '../../render/scene/picture.js';
import { createSimulation } from '../../scenarios/builtin.js';
import type { OpenedWorldFile } from '../../node/world-files.js';
import { UsageError, type ParsedArgs } from '../args.js';
import { print, printJson, writeOutputFile } from '../io.js';

export function runWorldPng(file: string, opened: OpenedWorldFile, o: ParsedArgs['options']): number {
  const out = o['out'];
  if (typeof out !== 'string' || !out.toLowerCase().endsWith('.png')) throw new UsageError('world png needs --out OUT.png');
  const agents = o['agents'] as number | undefined;
  const frames = o['frames'] as number | undefined;
  if (frames !== undefined && agents === undefined) throw new UsageError('--frames needs --agents');
  const world = opened.world;
  let sim;
  if (agents !== undefined) {
    sim = createSimulation(world, { agents });
    for (let f = 0; f < (frames ?? 0); f++) sim.step(0);
  }
  const pic = worldPicture(world, { ...(o['size'] !== undefined ? { size: o['size'] as number } : {}), ...(sim ? { sim } : {}) });
  const png = new PNG({ width: pic.width, height: pic.height });
  png.data.set(pic.rgba);
  const buf = PNG.sync.write(png, { colorType: 2, deflateLevel: 9 });
  writeOutputFile(out, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), file);
  const report = { kind: world.kind, file, out, width: pic.width, height: pic.height, bytes: buf.length, agents: agents ?? 0, frames: sim ? sim.frame : 0, scaleBarMetres: pic.scaleBarMetres, legend: pic.legend.map((l) => l.label) };
  if (o['json'] === true) printJson(report);
  else print(`${world.kind} ${file} -> ${out}: ${pic.width} × ${pic.height} px, ${buf.length} bytes${sim ? `, ${agents} agents after ${sim.frame} frames` : ''}; scale bar ${pic.scaleBarMetres} m; legend: ${report.legend.join(', ')}`);
  return 0;
}

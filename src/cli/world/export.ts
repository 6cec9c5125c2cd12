/**
 * `retrosim world export FILE --out OUT.glb|.gltf|.obj [--max-triangles N]`: a world's collision geometry for
 * Blender (an OBJ's materials go to OUT.mtl beside it), refused past N triangles (counted before it is built).
 */
import { basename, extname } from 'node:path';
import { exportScene } from '../../worlds/export/worlds.js';
import { writeGlb, writeGltf } from '../../worlds/export/gltf.js';
import { writeObj } from '../../worlds/export/obj.js';
import type { OpenedWorldFile } from '../../node/world-files.js';
import { UsageError, type ParsedArgs } from '../args.js';
import { inFile, print, printJson, writeOutputFile } from '../io.js';

export function runWorldExport(file: string, opened: OpenedWorldFile, o: ParsedArgs['options']): number {
  const out = o['out'];
  if (typeof out !== 'string') throw new UsageError('world export needs --out OUT.glb, OUT.gltf or OUT.obj');
  const ext = extname(out).toLowerCase();
  if (ext !== '.glb' && ext !== '.gltf' && ext !== '.obj') throw new UsageError(`--out must end in .glb, .gltf or .obj, got ${JSON.stringify(out)}`);
  // Counted before it is built: over the limit, a FormatError naming the file, the count and the limit.
  const maxTriangles = o['max-triangles'] as number | undefined;
  const scene = inFile(file, () => exportScene(opened.world, maxTriangles === undefined ? {} : { maxTriangles }));
  const files = [out];
  if (ext === '.obj') {
    const mtlPath = out.slice(0, out.length - ext.length) + '.mtl';
    const { obj, mtl } = writeObj(scene, basename(mtlPath));
    writeOutputFile(out, new TextEncoder().encode(obj), file);
    writeOutputFile(mtlPath, new TextEncoder().encode(mtl), file);
    files.push(mtlPath);
  } else writeOutputFile(out, ext === '.glb' ? writeGlb(scene) : writeGltf(scene), file);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  let triangles = 0;
  for (const p of scene.parts) {
    triangles += p.count;
    for (let i = 0; i < p.positions.length; i++) {
      const v = p.positions[i]!;
      if (v < min[i % 3]!) min[i % 3] = v;
      if (v > max[i % 3]!) max[i % 3] = v;
    }
  }
  const parts = scene.parts.map((p) => ({ group: p.group, name: p.name, hidden: p.hidden, triangles: p.count }));
  const report = { kind: scene.kind, file, files, format: ext.slice(1), triangles, parts, materials: scene.materials.map((m) => m.name), bounds: triangles ? { min, max } : null, floorId: scene.idMeaning };
  if (o['json'] === true) printJson(report);
  else {
    const byName = new Map<string, number>();
    for (const p of parts) byName.set(p.name + (p.hidden ? ' (hidden)' : ''), (byName.get(p.name + (p.hidden ? ' (hidden)' : '')) ?? 0) + p.triangles);
    print(`${scene.kind} ${file} -> ${files.join(', ')}: ${triangles} triangles in ${parts.length} part(s) (${[...byName].map(([n, c]) => `${n} ${c}`).join(', ')}), ${scene.materials.length} material(s)`);
    if (report.bounds) print(`metres, +Y up: ${JSON.stringify(report.bounds.min.map((x) => +x.toFixed(3)))}..${JSON.stringify(report.bounds.max.map((x) => +x.toFixed(3)))}; _FLOOR_ID is ${scene.idMeaning}`);
  }
  return 0;
}

/**
 * Wavefront OBJ of an export scene, with its MTL: `o` per group (a GTA placement, or the world), `g` per part
 * (floors, walls, mesh, shadow, ...; a hidden part's group is named "<part> (hidden)"), three `v` lines per
 * triangle (faces share no vertices, as in the glTF), `usemtl` per run of one material, and a comment
 * `# _FLOOR_ID N` before each run of faces with the same source id, OBJ having no attributes. Units metres,
 * +Y up: the axes Blender's OBJ importer expects by default.
 */
import type { ExportScene } from './scene.js';

const num = (x: number): string => {
  const r = Math.round(x * 1e6) / 1e6;
  return Object.is(r, -0) ? '0' : String(r);
};

/** Lines joined into one flat string at a time: a line held on its own costs several times its text. */
const LINES_PER_CHUNK = 4096;

/** The OBJ text and its MTL text; the OBJ names the MTL as `mtlName` (a file name beside it). */
export function writeObj(scene: ExportScene, mtlName: string): { obj: string; mtl: string } {
  const chunks: string[] = [];
  let lines: string[] = [
    `# retrosim world export: ${scene.name} (${scene.kind}), metres, +Y up`,
    `# _FLOOR_ID: ${scene.idMeaning}`,
    `mtllib ${mtlName}`,
  ];
  let vertex = 1;
  let group: string | null = null;
  for (const part of scene.parts) {
    const g = part.group || scene.name;
    if (g !== group) {
      lines.push(`o ${g}`);
      group = g;
    }
    lines.push(`g ${part.name}${part.hidden ? ' (hidden)' : ''}`);
    let mat = -1;
    let id = NaN;
    const P = part.positions;
    for (let t = 0; t < part.count; t++) {
      const o = t * 9;
      lines.push(`v ${num(P[o]!)} ${num(P[o + 1]!)} ${num(P[o + 2]!)}`, `v ${num(P[o + 3]!)} ${num(P[o + 4]!)} ${num(P[o + 5]!)}`, `v ${num(P[o + 6]!)} ${num(P[o + 7]!)} ${num(P[o + 8]!)}`);
      if (part.materials[t] !== mat) {
        mat = part.materials[t]!;
        lines.push(`usemtl ${scene.materials[mat]!.name}`);
      }
      if (part.ids[t] !== id) {
        id = part.ids[t]!;
        lines.push(`# _FLOOR_ID ${id}`);
      }
      lines.push(`f ${vertex} ${vertex + 1} ${vertex + 2}`);
      vertex += 3;
      if (lines.length >= LINES_PER_CHUNK) {
        chunks.push(lines.join('\n') + '\n');
        lines = [];
      }
    }
  }
  chunks.push(lines.join('\n') + '\n');
  const mtl: string[] = [`# retrosim world export: materials of ${scene.name}`];
  for (const m of scene.materials) {
    mtl.push(`newmtl ${m.name}`, `Kd ${num(m.rgb[0] / 255)} ${num(m.rgb[1] / 255)} ${num(m.rgb[2] / 255)}`, 'd 1', '');
  }
  return { obj: chunks.join(''), mtl: mtl.join('\n') };
}

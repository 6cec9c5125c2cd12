import { numArg, parseArgs, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { DEFAULT_MAX_FILE_BYTES, inFile, print, printJson, readInputFile } from '../io.js';
import { DEFAULT_LIMITS } from '../../limits.js';
import type { Vec3 } from '../../worlds/world.js';
import { parseColFile } from '../../worlds/gta/parse.js';
import { GtaWorld, type GtaGroundResult } from '../../worlds/gta/collision-world.js';
import { checkGtaPlacementsSize, parseGtaPlacements } from '../../worlds/gta/placements.js';
import type { GtaPlacement } from '../../worlds/gta/query.js';
import { COL_FOURCC, type ColFile, type ColModel } from '../../worlds/gta/model.js';

const usage = `usage:
  retrosim col info FILE [--json]
  retrosim col ray FILE fx fy fz tx ty tz [--placements P.json] [--json]
  retrosim col sphere FILE x y z r [--placements P.json] [--json]
  retrosim col ground FILE x y z [--placements P.json] [--json]

GTA collision files (.col: COLL, COL2, COL3, COL4), in metres with z up.
  info    every model's version, name, id, flags, section counts and stored bounds, and the bytes after the
          last model
  ray     the nearest solid hit of the segment from (fx,fy,fz) to (tx,ty,tz): spheres, boxes and faces
          (shadow meshes are not solid)
  sphere  whether a sphere overlaps anything solid, and where push-out moves it
  ground  the floor at or below a point and the ceiling above it
Models sit at the origin unless --placements gives a JSON list of {"model", "position", "rotation"?}
(rotation a quaternion x, y, z, w).
--json prints one line of JSON:
  info:   {"models":[{"version","name","modelId","flags","spheres","boxes","faces","vertices","faceGroups",
           "shadowFaces","shadowVertices","bounds":{"min","max","center","radius"}}],"trailingBytes":N}
  ray:    {"hit","fraction","point","normal","what","id","material","model","instance"}
  sphere: {"overlaps","position","contacts":[{"what","id","model","instance","normal"}]}
  ground: {"hasFloor","floor","ceiling","material","id","model","instance","normal"} (null for none)`;

const KINDS = ['', 'face', 'sphere', 'box'];

function modelInfo(m: ColModel) {
  return {
    version: m.version,
    name: m.name,
    modelId: m.modelId,
    flags: m.flags,
    spheres: m.spheres.length,
    boxes: m.boxes.length,
    faces: m.mesh.faceCount,
    vertices: m.mesh.vertexCount,
    faceGroups: m.faceGroups ? m.faceGroups.length : 0,
    shadowFaces: m.shadow ? m.shadow.faceCount : 0,
    shadowVertices: m.shadow ? m.shadow.vertexCount : 0,
    bounds: { min: m.bounds.min, max: m.bounds.max, center: m.bounds.center, radius: m.bounds.radius },
  };
}

function numbers(p: string[], names: string[]): number[] {
  return names.map((n, i) => numArg(p[i]!, n));
}

/** Parses a COL file; a file with no model in it is refused by the parser. Errors name the file. */
function readCol(file: string): ColFile {
  const bytes = readInputFile(file);
  return inFile(file, () => parseColFile(bytes));
}

function loadWorld(file: string, placementsPath: string | undefined): GtaWorld {
  const col = readCol(file);
  let placements: GtaPlacement[] | undefined;
  if (placementsPath !== undefined) {
    // Sized before it is read, against the placements' own bound (far below the file limit).
    const text = new TextDecoder().decode(readInputFile(placementsPath, DEFAULT_MAX_FILE_BYTES, (size) => checkGtaPlacementsSize(size, DEFAULT_LIMITS, placementsPath)));
    placements = inFile(placementsPath, () => parseGtaPlacements(text));
  }
  return inFile(placementsPath ?? file, () => new GtaWorld(file, col, placements));
}

const fmt = (v: readonly number[]): string => `(${v.map((x) => +x.toFixed(4)).join(', ')})`;

export const command: Command = {
  summary: 'GTA collision files: info, ray, sphere and ground queries',
  usage,
  run(argv) {
    const [sub, ...rest] = argv;
    const { positionals, options } = parseArgs(rest, { json: { type: 'flag' }, placements: { type: 'string' } });
    const json = options.json === true;
    const placements = options.placements as string | undefined;
    const want = (names: string[]): string[] => {
      if (positionals.length !== names.length) throw new UsageError(`col ${sub} expects ${names.length} argument(s) <${names.join('> <')}>, got ${positionals.length}`);
      return positionals;
    };
    if (sub === 'info') {
      const [file] = want(['FILE']);
      if (placements !== undefined) throw new UsageError('col info takes no --placements');
      const f = readCol(file!);
      const out = { models: f.models.map(modelInfo), trailingBytes: f.trailingBytes };
      if (json) printJson(out);
      else {
        f.models.forEach((m, i) => {
          const x = out.models[i]!;
          print(
            `${i}: ${COL_FOURCC[m.version]} ${JSON.stringify(m.name)} id ${m.modelId} flags ${m.flags}: ${x.spheres} spheres, ${x.boxes} boxes, ` +
              `${x.faces} faces, ${x.vertices} vertices, ${x.faceGroups} face groups, shadow ${x.shadowFaces} faces / ${x.shadowVertices} vertices; ` +
              `bounds ${fmt(m.bounds.min)}..${fmt(m.bounds.max)} sphere ${fmt(m.bounds.center)} r ${+m.bounds.radius.toFixed(4)}`,
          );
        });
        print(`${f.models.length} model(s), ${f.trailingBytes} trailing byte(s)${f.trailingZero ? '' : ' (not all zero)'}`);
      }
      return 0;
    }
    if (sub === 'ray') {
      const p = want(['FILE', 'fx', 'fy', 'fz', 'tx', 'ty', 'tz']);
      const [fx, fy, fz, tx, ty, tz] = numbers(p.slice(1), ['fx', 'fy', 'fz', 'tx', 'ty', 'tz']) as [number, number, number, number, number, number];
      const w = loadWorld(p[0]!, placements);
      const h = w.segmentHit([fx, fy, fz], [tx, ty, tz]);
      const out = { hit: h.hit, fraction: h.fraction, point: h.point, normal: h.normal, what: h.what, id: h.id, material: h.material, model: h.model, instance: h.instance };
      if (json) printJson(out);
      else if (!h.hit) print('clear');
      else print(`hit ${h.what} ${h.id} of ${JSON.stringify(h.model)} (placement ${h.instance}) at fraction ${h.fraction}, point ${fmt(h.point)}, normal ${fmt(h.normal)}, material ${h.material}`);
      return 0;
    }
    if (sub === 'sphere') {
      const p = want(['FILE', 'x', 'y', 'z', 'r']);
      const [x, y, z, r] = numbers(p.slice(1), ['x', 'y', 'z', 'r']) as [number, number, number, number];
      if (!(r > 0)) throw new UsageError('r must be positive');
      const w = loadWorld(p[0]!, placements);
      const s = w.scene;
      const overlaps = s.sphereOverlaps(x, y, z, r);
      const n = s.pushOutSphere(x, y, z, r);
      const P = s.push;
      const contacts = [];
      for (let i = 0; i < n && i < P.count; i++) {
        const inst = P.instance[i]!;
        contacts.push({
          what: KINDS[P.kind[i]!],
          id: P.index[i],
          model: s.models[s.instModel[inst]!]!.name,
          instance: inst,
          normal: [P.normal[i * 3], P.normal[i * 3 + 1], P.normal[i * 3 + 2]],
        });
      }
      const out = { overlaps, position: [P.x, P.y, P.z] as Vec3, contacts };
      if (json) printJson(out);
      else print(overlaps ? `overlaps; pushed out to ${fmt(out.position)} by ${contacts.length} contact(s)` : 'no overlap');
      return 0;
    }
    if (sub === 'ground') {
      const p = want(['FILE', 'x', 'y', 'z']);
      const [x, y, z] = numbers(p.slice(1), ['x', 'y', 'z']) as [number, number, number];
      const w = loadWorld(p[0]!, placements);
      const g = w.ground([x, y, z]) as GtaGroundResult;
      const nan = (v: number): number | null => (Number.isNaN(v) ? null : v);
      const out = { hasFloor: g.hasFloor, floor: nan(g.floor), ceiling: nan(g.ceiling), material: g.material, id: g.id, model: g.model, instance: g.instance, normal: g.normal };
      if (json) printJson(out);
      else print(`${g.hasFloor ? `floor ${g.floor} (${JSON.stringify(g.model)} ${g.id}, material ${g.material})` : 'no floor'}; ${Number.isNaN(g.ceiling) ? 'no ceiling' : `ceiling ${g.ceiling}`}`);
      return 0;
    }
    throw new UsageError(sub === undefined ? 'col needs a subcommand: info, ray, sphere or ground' : `unknown col subcommand ${JSON.stringify(sub)}`);
  },
};

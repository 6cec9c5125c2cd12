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
import { runBuild, runConvert } from '../col/convert-build.js';
import { modelInfo } from '../col/model-info.js';

const usage = `usage:
  retrosim col info FILE [--json]
  retrosim col ray FILE fx fy fz tx ty tz [--placements P.json] [--json]
  retrosim col sphere FILE x y z r [--placements P.json] [--json]
  retrosim col ground FILE x y z [--placements P.json] [--json]
  retrosim col convert FILE --to COLL|COL2|COL3 --out OUT [--lossy] [--face-groups auto|build|keep|none] [--json]
  retrosim col build DESC.json|MODEL.obj --out OUT [--version COLL|COL2|COL3] [--up y|z] [--name NAME] [--json]

GTA collision files (.col: COLL, COL2, COL3, COL4), in metres with z up.
  info    every model's version, name, id, flags, section counts and stored bounds, and the bytes after the
          last model
  ray     the nearest solid hit of the segment from (fx,fy,fz) to (tx,ty,tz): spheres, boxes and faces
          (shadow meshes are not solid)
  sphere  whether a sphere overlaps anything solid, and where push-out moves it
  ground  the floor at or below a point and the ceiling above it
  convert every model to another version, saying what is lost: COL2/COL3 store vertices as int16 × 1/128
          (a coordinate beyond ±256 or finer than 1/128 cannot survive) and have no room for COLL's face piece
          and brightness bytes or its lines; COLL has no face groups, no shadow mesh and no light values; COL2
          has no shadow mesh. Refuses when anything would be lost unless --lossy (then it warns with counts).
          For COL2/COL3, face groups (at most 50 consecutive faces each, with their boxes) are kept when valid
          or built when a mesh has more than 50 faces, faces reordered by group (the order is reported)
  build   models from a JSON description (spheres, boxes, a mesh with surfaces, a shadow mesh; see
          docs/formats/gta-col.md) or an OBJ file (o = model, g shadow = shadow mesh, usemtl N = material N;
          --up y, the default, reads Blender's Y-up OBJ), bounds computed, face groups built for COL2/COL3
Models sit at the origin unless --placements gives a JSON list of {"model", "position", "rotation"?}
(rotation a quaternion x, y, z, w).
--json prints one line of JSON:
  info:   {"models":[{"version","name","modelId","flags","spheres","boxes","faces","vertices","faceGroups",
           "shadowFaces","shadowVertices","bounds":{"min","max","center","radius"}}],"trailingBytes":N}
  ray:    {"hit","fraction","point","normal","what","id","material","model","instance"}
  sphere: {"overlaps","position","contacts":[{"what","id","model","instance","normal"}]}
  ground: {"hasFloor","floor","ceiling","material","id","model","instance","normal"} (null for none)
  convert: {"out","bytes","to","models":[{"name","from","to","losses":[{"kind","count","detail"}],"faceGroups",
           "groups","faceOrder","boundsRecomputed"}]}   (faceOrder[new] = old face index, null when unchanged)
  build:  {"out","bytes","snapped","models":[<info of each model>]}`;

const KINDS = ['', 'face', 'sphere', 'box'];

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
  summary: 'GTA collision files: info, ray, sphere and ground queries; convert between versions, build from JSON or OBJ',
  usage,
  run(argv) {
    const [sub, ...rest] = argv;
    const { positionals, options } = parseArgs(rest, {
      json: { type: 'flag' },
      placements: { type: 'string' },
      to: { type: 'string' },
      out: { type: 'string' },
      lossy: { type: 'flag' },
      'face-groups': { type: 'string' },
      version: { type: 'string' },
      up: { type: 'string' },
      name: { type: 'string' },
    });
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
    if (sub === 'convert') {
      const [file] = want(['FILE']);
      return runConvert(file!, options);
    }
    if (sub === 'build') {
      const [file] = want(['DESC']);
      return runBuild(file!, options);
    }
    throw new UsageError(sub === undefined ? 'col needs a subcommand: info, ray, sphere, ground, convert or build' : `unknown col subcommand ${JSON.stringify(sub)}`);
  },
};

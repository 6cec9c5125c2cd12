/**
 * `retrosim col convert` and `retrosim col build`: a .col file's models in another version (with what is lost),
 * and models built from a JSON description or an OBJ file.
 */
import { extname } from 'node:path';
import { parseColFile } from '../../worlds/gta/parse.js';
import { writeColFile } from '../../worlds/gta/write.js';
import { convertColModel, type ColTargetVersion, type ConvertedModel, type FaceGroupPolicy } from '../../worlds/gta/convert.js';
import { buildColFromJson, COL_DESCRIPTION_FORMAT } from '../../worlds/gta/describe.js';
import { buildColFromObj } from '../../worlds/gta/describe-obj.js';
import { FormatError } from '../../binary/format-error.js';
import { DEFAULT_LIMITS } from '../../limits.js';
import { COL_FOURCC, type ColVersion } from '../../worlds/gta/model.js';
import { UsageError, type ParsedArgs } from '../args.js';
import { inFile, print, printJson, readInputFile, writeOutputFile } from '../io.js';
import { modelInfo } from './model-info.js';

function versionArg(v: unknown, what: string): ColTargetVersion {
  if (v === 'COLL' || v === '1') return 1;
  if (v === 'COL2' || v === '2') return 2;
  if (v === 'COL3' || v === '3') return 3;
  throw new UsageError(`${what} must be COLL, COL2 or COL3${v === undefined ? '' : `, got ${JSON.stringify(v)}`}`);
}

function outArg(o: ParsedArgs['options'], sub: string): string {
  const out = o['out'];
  if (typeof out !== 'string') throw new UsageError(`col ${sub} needs --out OUT`);
  return out;
}

export function runConvert(file: string, o: ParsedArgs['options']): number {
  const to = versionArg(o['to'], '--to');
  const out = outArg(o, 'convert');
  const fg = (o['face-groups'] as string | undefined) ?? 'auto';
  if (!['auto', 'build', 'keep', 'none'].includes(fg)) throw new UsageError(`--face-groups must be auto, build, keep or none, got ${JSON.stringify(fg)}`);
  const f = parseColFile(readInputFile(file));
  const lossy = o['lossy'] === true;
  const done: ConvertedModel[] = f.models.map((m) => convertColModel(m, to, { lossy, faceGroups: fg as FaceGroupPolicy }));
  const bytes = writeColFile(done.map((d) => d.model), f.trailing);
  writeOutputFile(out, bytes, file);
  const models = done.map((d, i) => ({
    name: d.model.name,
    from: f.models[i]!.version,
    to,
    losses: d.losses,
    faceGroups: d.faceGroups,
    groups: d.model.faceGroups ? d.model.faceGroups.length : 0,
    faceOrder: d.faceOrder ? Array.from(d.faceOrder) : null,
    boundsRecomputed: d.boundsRecomputed,
  }));
  if (o['json'] === true) {
    printJson({ out, bytes: bytes.length, to, models });
    return 0;
  }
  models.forEach((m, i) => {
    const lost = m.losses.length === 0 ? 'nothing lost' : `LOST: ${m.losses.map((l) => l.detail).join('; ')}`;
    const groups = m.faceGroups === 'built' ? `, ${m.groups} face groups built${m.faceOrder ? ' (faces reordered by group: see --json faceOrder)' : ''}` : m.faceGroups === 'kept' ? `, ${m.groups} face groups kept` : '';
    print(`${i}: ${COL_FOURCC[m.from as ColVersion]} ${JSON.stringify(m.name)} -> ${COL_FOURCC[to]}: ${lost}${groups}${m.boundsRecomputed ? ', bounds recomputed' : ''}`);
  });
  for (const m of models) for (const l of m.losses) process.stderr.write(`retrosim: warning: ${JSON.stringify(m.name)}: ${l.detail}\n`);
  print(`${out}: ${bytes.length} bytes, ${models.length} model(s)`);
  return 0;
}

export function runBuild(file: string, o: ParsedArgs['options']): number {
  const out = outArg(o, 'build');
  // A description is refused by its size before it is read (and by its count while it is read).
  const max = DEFAULT_LIMITS.gta.descriptionBytes;
  const bytesIn = readInputFile(file, undefined, (size) => {
    if (size > max) throw new FormatError(COL_DESCRIPTION_FORMAT, -1, `the description is ${size} bytes, over the limit of ${max} bytes (limits.gta.descriptionBytes)`);
  });
  const obj = extname(file).toLowerCase() === '.obj';
  const up = (o['up'] as string | undefined) ?? 'y';
  if (up !== 'y' && up !== 'z') throw new UsageError(`--up must be y or z, got ${JSON.stringify(up)}`);
  if (!obj && (o['up'] !== undefined || o['name'] !== undefined)) throw new UsageError('--up and --name are for OBJ input');
  const version = o['version'] === undefined ? undefined : versionArg(o['version'], '--version');
  let built;
  if (obj) {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytesIn);
    } catch {
      throw new UsageError(`${file}: not UTF-8 text`);
    }
    built = inFile(file, () => buildColFromObj(text, { up, ...(version ? { version } : {}), ...(typeof o['name'] === 'string' ? { name: o['name'] } : {}) }));
  } else {
    if (version !== undefined) throw new UsageError('--version is for OBJ input (a JSON description says its own "version")');
    built = inFile(file, () => buildColFromJson(bytesIn));
  }
  const bytes = writeColFile(built.models);
  writeOutputFile(out, bytes, file);
  if (o['json'] === true) {
    printJson({ out, bytes: bytes.length, snapped: built.snapped, models: built.models.map(modelInfo) });
    return 0;
  }
  for (const m of built.models) {
    print(`${COL_FOURCC[m.version]} ${JSON.stringify(m.name)}: ${m.spheres.length} spheres, ${m.boxes.length} boxes, ${m.mesh.faceCount} faces, ${m.faceGroups?.length ?? 0} face groups, shadow ${m.shadow?.faceCount ?? 0} faces`);
  }
  if (built.snapped > 0) print(`${built.snapped} vertices snapped to the 1/128 grid`);
  print(`${out}: ${bytes.length} bytes, ${built.models.length} model(s)`);
  return 0;
}

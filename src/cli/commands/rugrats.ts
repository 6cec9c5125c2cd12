import { expectPositionals, intArg, parseArgs, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { inFile, print, printJson, readInputFile } from '../io.js';
import { worldFilePath } from '../../node/open-world.js';
import { crc32 } from '../../binary/crc32.js';
import { buildColIndex } from '../../worlds/rugrats/col-index.js';
import { isHalved } from '../../worlds/rugrats/layout.js';
import { parseColWithOffsets } from '../../worlds/rugrats/parse.js';
import { queryCol } from '../../worlds/rugrats/query.js';
import {
  SEGMENT_OUT_LENGTH,
  S_DEPTH,
  S_NORMAL,
  S_POINT,
  S_RESULT,
  S_TILE,
  S_WRITTEN,
  WROTE_DEPTH,
  WROTE_NORMAL,
  WROTE_POINT,
  WROTE_TILE,
  segmentCol,
} from '../../worlds/rugrats/segment.js';
import { parseTrace, verifyTrace } from '../../worlds/rugrats/trace.js';

const usage = `usage:
  retrosim rugrats info FILE [--json]
  retrosim rugrats query FILE x y z [--json]
  retrosim rugrats segment FILE fx fy fz tx ty tz [--json]
  retrosim rugrats verify-trace DB TRACE [--max-differences N] [--json]

Rugrats (PS1) collision databases, LEVELnn.COL, in the game's integer units (1024 per tile, y down).
FILE may be the built-in world rugrats-demo (a file of that name in the current folder wins).
  info          bounds, counts of cells, tiles, halved cells, sloped tiles and normals
  query         the point query (0x8002b240): result 0 open, 1 closed or no tile, 2 outside; the ceiling and
                floor heights; the tile (file offset of its 8 bytes, 0 for none)
  segment       the segment test (0x8002cd7c): result 0 gets through, 1 stopped, 2 from not in the open; depth,
                point, normal (4.12) and tile. An output the original does not write for that answer is null.
  verify-trace  runs a JSON-lines conformance trace against the port; exit 1 on any mismatch
--json prints one line of JSON:
  info:         {"file","bytes","crc32","min","max","columns","cells","tiles","halvedCells","slopedTiles",
                 "floorNormals","ceilingNormals","unknown24"}
  query:        {"result","ceiling","floor","tile"}
  segment:      {"result","depth","point":[x,y,z],"normal":[x,y,z],"tile"}
  verify-trace: {"entries","matches","mismatches","differences":[{"line","op","input","field","expected","actual"}]}`;

function info(file: string, bytes: Uint8Array) {
  const { data } = parseColWithOffsets(bytes);
  let cells = 0;
  let tiles = 0;
  let halvedCells = 0;
  let slopedTiles = 0;
  let columns = 0;
  for (const c of data.columns) {
    if (c.cells.length > 0) columns++;
    cells += c.cells.length;
    tiles += c.tiles.length;
    for (const cell of c.cells) if (isHalved(c.tiles[cell.tile]!.flags)) halvedCells++;
    for (const t of c.tiles) if (t.floorNormal !== 0 || t.ceilingNormal !== 0) slopedTiles++;
  }
  return {
    file,
    bytes: bytes.length,
    crc32: '0x' + crc32(bytes).toString(16).padStart(8, '0'),
    min: data.min,
    max: data.max,
    columns,
    cells,
    tiles,
    halvedCells,
    slopedTiles,
    floorNormals: data.floorNormals.length,
    ceilingNormals: data.ceilingNormals.length,
    unknown24: data.unknown24,
  };
}

function ints(p: string[], from: number, names: string[]): number[] {
  return names.map((n, i) => {
    const v = intArg(p[from + i]!, n);
    if (v < -0x80000000 || v > 0x7fffffff) throw new UsageError(`${n} must fit in 32 bits, got ${p[from + i]}`);
    return v;
  });
}

const RESULT_WORDS = ['gets through', 'stopped', 'from is not in the open'];
const QUERY_WORDS = ['open', 'closed or no tile', 'outside the bounds'];

export const command: Command = {
  summary: 'Rugrats LEVELnn.COL: info, the point query, the segment test, conformance traces',
  usage,
  run(argv) {
    const { positionals, options } = parseArgs(argv, { json: { type: 'flag' }, 'max-differences': { type: 'int', min: 0, max: 1000 } });
    const json = options.json === true;
    const [sub, ...rest] = positionals;
    switch (sub) {
      case 'info': {
        const [given] = expectPositionals(rest, ['FILE']);
        const file = worldFilePath(given!);
        const r = inFile(file, () => info(file, readInputFile(file)));
        if (json) printJson(r);
        else {
          print(`${r.file}: ${r.bytes} bytes, crc32 ${r.crc32}`);
          print(`bounds ${r.min.join(' ')} .. ${r.max.join(' ')}`);
          print(`${r.columns} columns in use, ${r.cells} cells, ${r.tiles} tiles (${r.halvedCells} halved cells, ${r.slopedTiles} sloped tiles)`);
          print(`${r.floorNormals} floor normals, ${r.ceilingNormals} ceiling normals, header +0x24 = ${r.unknown24}`);
        }
        return 0;
      }
      case 'query': {
        const p = expectPositionals(rest, ['FILE', 'x', 'y', 'z']);
        const [x, y, z] = ints(p, 1, ['x', 'y', 'z']);
        const ix = buildColIndex(...fromFile(worldFilePath(p[0]!)));
        const q = new Int32Array(4);
        queryCol(ix, x!, y!, z!, q);
        const r = { result: q[0]!, ceiling: q[1]!, floor: q[2]!, tile: q[3]! };
        if (json) printJson(r);
        else print(`result ${r.result} (${QUERY_WORDS[r.result]}), ceiling ${r.ceiling}, floor ${r.floor}, tile ${r.tile}`);
        return 0;
      }
      case 'segment': {
        const p = expectPositionals(rest, ['FILE', 'fx', 'fy', 'fz', 'tx', 'ty', 'tz']);
        const v = ints(p, 1, ['fx', 'fy', 'fz', 'tx', 'ty', 'tz']);
        const ix = buildColIndex(...fromFile(worldFilePath(p[0]!)));
        const o = new Int32Array(SEGMENT_OUT_LENGTH);
        segmentCol(ix, v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!, o);
        const w = o[S_WRITTEN]!;
        const r = {
          result: o[S_RESULT]!,
          depth: w & WROTE_DEPTH ? o[S_DEPTH]! : null,
          point: w & WROTE_POINT ? [o[S_POINT]!, o[S_POINT + 1]!, o[S_POINT + 2]!] : null,
          normal: w & WROTE_NORMAL ? [o[S_NORMAL]!, o[S_NORMAL + 1]!, o[S_NORMAL + 2]!] : null,
          tile: w & WROTE_TILE ? o[S_TILE]! : null,
        };
        if (json) printJson(r);
        else {
          const show = (x: unknown) => (x === null ? 'not written' : Array.isArray(x) ? x.join(' ') : String(x));
          print(`result ${r.result} (${RESULT_WORDS[r.result]}), depth ${show(r.depth)}, point ${show(r.point)}, normal ${show(r.normal)}, tile ${show(r.tile)}`);
        }
        return 0;
      }
      case 'verify-trace': {
        const [db, tracePath] = expectPositionals(rest, ['DB', 'TRACE']);
        const ix = buildColIndex(...fromFile(db!));
        const text = new TextDecoder().decode(readInputFile(tracePath!));
        const t = parseTrace(text);
        const max = typeof options['max-differences'] === 'number' ? options['max-differences'] : 5;
        const r = verifyTrace(ix, t.entries, max);
        if (json) printJson(r);
        else {
          print(`${r.entries} entries: ${r.matches} match, ${r.mismatches} differ`);
          for (const d of r.differences) {
            print(`  line ${d.line} ${d.op} ${d.input.join(' ')}: ${d.field} expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.actual)}`);
          }
        }
        return r.mismatches === 0 ? 0 : 1;
      }
      default:
        throw new UsageError(sub === undefined ? 'rugrats needs a subcommand: info, query, segment or verify-trace' : `unknown rugrats subcommand ${JSON.stringify(sub)}`);
    }
  },
};

function fromFile(path: string): Parameters<typeof buildColIndex> {
  const p = inFile(path, () => parseColWithOffsets(readInputFile(path)));
  return [p.data, p.offsets];
}

#!/usr/bin/env node
/**
 * Writes assets/piney/field-tables.json: the field generator's PUBLIC constants (from
 * ../shared/reference/piney-field.md, sections 2.1, 2.4, 2.10, 4.1, 4.2, 4.3) and a SYNTHETIC set of object
 * tables and cover mesh lists shaped like the game's (which are not public): 168 rows in 55 arrays, flat
 * 0x2 / 0x4 / 0x8 in 118 / 5 / 45 rows, rotflag 0 / 1 / 2 in 71 / 12 / 85 rows, and every row or size the
 * reference does reveal (entrance sizes of types 1, 5, 7, 10; type 7's first key row; type 10's lake row;
 * type 7's three tomb rows; type 8's doubled rock). Deterministic: run `node assets/piney/make-field-tables.mjs`
 * to regenerate the same file (or `node assets/piney/make-field-tables.mjs OUT.json` to write elsewhere). Replace
 * the file with the real tables to get the game's own fields.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// Letters of the field CCS files (field_a … field_p); type 4 has no field of its own.
const LETTER = ['a', 'b', 'c', 'd', null, 'g', 'h', 'i', 'k', 'm', 'p'];
const TBL = ['A', 'B', 'C', 'D', null, 'G', 'H', 'I', 'K', 'M', 'P'];
const LAKE_TYPES = [10, 2, 3, 9, 8];
const TREE_ROW_TYPES = [1];
// Type 4 shares type 3's arrays (the game has 55 arrays for 66 entries: 5 lake arrays of their own, the
// non-lake types' lake entries pointing at their key rows, and one type without a field).
const SHARED_TYPE = { 4: 3 };

/** Known entrance sizes (reference 4.3); the rest are synthetic. */
const ENTER_SIZE = { 1: [2, 2], 5: [3, 4], 7: [3, 3], 10: [3, 2] };

const rows = {};
const names = { enter: [], lake: [], key: [], sub: [], base: [], tree: [] };

// Synthetic sizes come from a fixed formula (no randomness), small like the real objects.
const size = (t, r, k, max) => 1 + ((t * 7 + r * 3 + k * 5) % max);

for (let t = 0; t <= 10; t++) {
  const src = SHARED_TYPE[t] ?? t;
  const L = LETTER[src];
  const T = TBL[src];
  if (src !== t) {
    for (const kind of ['enter', 'key', 'sub', 'base', 'tree']) names[kind].push(names[kind][src]);
    names.lake.push(names.key[src]);
    continue;
  }
  // Entrance: one row, levelled (flat 0x2), kind 3.
  const en = `EnterObjTBL_${T}`;
  const [ew, eh] = ENTER_SIZE[t] ?? [2 + (t % 2), 2 + ((t >> 1) % 2)];
  rows[en] = [{ anm: null, clump: `CMP_syn_${L}1ent1`, type: 3, w: ew, h: eh, flat: 2 }];
  names.enter.push(en);

  // Key: 3 rows (type 7's first is the known 3 × 1 tower), levelled.
  const ke = `KeyObjTBL_${T}`;
  rows[ke] = [0, 1, 2].map((r) =>
    t === 7 && r === 0
      ? { anm: 'ANM_sfi2tow1a', clump: 'CMP_syn_i2tow1', type: 0, w: 3, h: 1, flat: 2 }
      : { anm: null, clump: `CMP_syn_${L}2key${r + 1}`, type: 0, w: size(t, r, 0, 3), h: size(t, r, 1, 2), flat: 2 },
  );
  names.key.push(ke);

  // Lake: lake types own a one-row array (flat 0x4); the others point at their key rows.
  if (LAKE_TYPES.includes(t)) {
    const la = `LakeObjTBL_${T}`;
    rows[la] = [{ anm: null, clump: t === 10 ? 'CMP_sfp4lak1' : `CMP_syn_${L}4lak1`, type: 1, w: 1, h: 1, flat: 4 }];
    names.lake.push(la);
  } else {
    names.lake.push(ke);
  }

  // Sub: 4 rows, levelled; type 8 lists its rock twice (as the game's does).
  const su = `SubObjTBL_${T}`;
  rows[su] = [0, 1, 2, 3].map((r) => ({
    anm: null,
    clump: t === 8 && r < 2 ? 'CMP_sfk3roc1' : `CMP_syn_${L}3sub${r + 1}`,
    type: 1,
    w: size(t, r, 2, 2),
    h: size(t, r, 3, 2),
    flat: 2,
  }));
  names.sub.push(su);

  // Base: 4 rows (type 7: 6, three of them the tombs of kind 1); the last row asks for the slope test.
  const ba = `BaseObjTBL_${T}`;
  const nBase = t === 7 ? 6 : 4;
  rows[ba] = Array.from({ length: nBase }, (_, r) => {
    const tomb = t === 7 && r >= 3;
    return {
      anm: null,
      clump: tomb ? `CMP_sfi3tom${r - 2}` : `CMP_syn_${L}3bas${r + 1}`,
      type: tomb ? 1 : 2,
      w: size(t, r, 4, 2),
      h: size(t, r, 5, 2),
      flat: t !== 7 && r === nBase - 1 ? 8 : 2,
    };
  });
  names.base.push(ba);

  // Tree: tree-row types have the 5 row pieces (ends and middles, 1 × 1, levelled); the others 4 trees
  // with the slope test, standing on the ground.
  const tr = `TreeObjTBL_${T}`;
  if (TREE_ROW_TYPES.includes(t)) {
    const piece = ['endL1', 'endL2', 'mid1', 'mid2', 'endR1'];
    rows[tr] = piece.map((p) => ({ anm: null, clump: `CMP_syn_${L}6row_${p}`, type: 2, w: 1, h: 1, flat: 2 }));
  } else {
    rows[tr] = [0, 1, 2, 3].map((r) => ({ anm: null, clump: `CMP_syn_${L}6tre${r + 1}`, type: 2, w: 1, h: 1, flat: 8 }));
  }
  names.tree.push(tr);
}

// rotflag is never read; give it the game's 71 / 12 / 85 mix in a fixed order over the rows.
let n = 0;
const ordered = {};
for (const k of Object.keys(rows).sort()) {
  ordered[k] = rows[k].map((r) => {
    const rot = n < 71 ? 0 : n < 83 ? 1 : 2;
    n++;
    return { anm: r.anm, clump: r.clump, type: r.type, w: r.w, h: r.h, rotflag: rot, flat: r.flat };
  });
}

const small = [];
const base = [];
for (let t = 0; t <= 10; t++) {
  const L = LETTER[SHARED_TYPE[t] ?? t];
  small.push(Array.from({ length: 7 }, (_, i) => (t === 10 && i === 0 ? 'MDL_sfp5tur3' : `MDL_syn_${L}5cov${i + 1}`)));
  base.push([t === 10 ? 'MDL_sfp5tur1' : `MDL_syn_${L}5gnd1`]);
}

const initDraws = [];
for (let t = 0; t <= 10; t++) {
  const row = [];
  for (let w = 0; w < 10; w++) {
    let d = t === 0 ? 112 : 0;
    if (t === 5 || t === 6) d = w < 4 ? 700 : 1600;
    if ([2, 3, 5, 6].includes(t)) d += 21;
    row.push(d);
  }
  initDraws.push(row);
}

const out = {
  format: 'retrosim-piney-tables',
  version: 1,
  synthetic: { objectTables: true, smallMeshNames: true, baseMeshNames: true },
  note:
    'PUBLIC: initDraws, hills, objectCounts, divisions, percent, noEntranceEvents, lakeFieldTypes, treeRowTypes, ' +
    'the entrance sizes of types 1/5/7/10, type 7 key row 0, type 10 lake row 0, background p1. SYNTHETIC: all other ' +
    'object rows and the mesh name lists (shaped like the game\'s: 168 rows in 55 arrays, flat 0x2/0x4/0x8 in ' +
    '118/5/45 rows). Made by assets/piney/make-field-tables.mjs. Replace with the real tables for the game\'s fields.',
  initDraws,
  hills: { perGround: [{ small: 3, large: 1 }, { small: 5, large: 1 }, { small: 8, large: 1 }], large: { range: 10, base: 20 }, small: { range: 10, base: 10 } },
  objectCounts: { key: 20, sub: 30, base: 35, tree: 35 },
  divisions: [
    { fieldType: 7, kind: 'key', by: 2 },
    { fieldType: 7, kind: 'base', by: 3 },
    { fieldType: 7, kind: 'tree', by: 2 },
    { fieldType: 1, kind: 'tree', by: 6 },
  ],
  percent: ['0x3f4ccccd', '0x3f666666', '0x3f800000'],
  noEntranceEvents: [113, 112, 111, 110, 109, 82, 81, 80, 79, 78, 57, 56, 55, 54, 53, 42, 41, 40, 39, 28],
  lakeFieldTypes: LAKE_TYPES,
  treeRowTypes: TREE_ROW_TYPES,
  objectTables: { rows: ordered, ...names },
  smallMeshNames: small,
  baseMeshNames: base,
  backgrounds: [
    { fieldType: 10, weather: 0, file: 'bg_p1', ambient: '0x8094786e', rotation: ['0x420d0ebc', '0x41f00000', '0x420d0ebc'], colour: '0x00dff0f7' },
  ],
};

const total = Object.values(ordered).reduce((s, r) => s + r.length, 0);
const flats = [2, 4, 8].map((f) => Object.values(ordered).flat().filter((r) => r.flat === f).length);
if (Object.keys(ordered).length !== 55 || total !== 168 || flats.join() !== '118,5,45') {
  throw new Error(`shape check failed: ${Object.keys(ordered).length} arrays, ${total} rows, flats ${flats}`);
}
const target = process.argv[2] ?? join(here, 'field-tables.json');
writeFileSync(target, JSON.stringify(out, null, 1) + '\n');
process.stdout.write(`wrote ${target}: 55 arrays, ${total} rows, flat 0x2/0x4/0x8 = ${flats.join('/')}\n`);

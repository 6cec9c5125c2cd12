/**
 * glTF 2.0 of an export scene, written by hand (no exporter library): a root node named after the world,
 * one child node per group (a GTA placement) and one node with one mesh per part, a primitive per material,
 * unindexed triangles (each face its own three vertices, so an id is constant over a face), POSITION with its
 * min and max, and the source id as the vertex attribute `_FLOOR_ID` (FLOAT, exact below 2^24). Materials are
 * double-sided, named, with stable base colours. Hidden parts (shadow meshes, swap alternatives) carry
 * `KHR_node_visibility` `visible: false` and `extras.hidden`.
 *
 * `.glb`: the binary container (JSON chunk padded with spaces, BIN chunk with zeros); `.gltf`: JSON with the
 * buffer embedded as a base64 data URI, one self-contained file.
 */
import type { ExportPart, ExportScene } from './scene.js';

/** glTF constants used here. */
const FLOAT = 5126;
const ARRAY_BUFFER = 34962;
const TRIANGLES = 4;

/** sRGB byte to a linear factor (glTF colours are linear). */
function linear(c: number): number {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

interface Built {
  json: Record<string, unknown>;
  bin: Uint8Array;
}

function build(scene: ExportScene): Built {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const bufferViews: Record<string, unknown>[] = [];
  const accessors: Record<string, unknown>[] = [];
  const addView = (bytes: Uint8Array): number => {
    const pad = (4 - (length % 4)) % 4;
    if (pad) {
      chunks.push(new Uint8Array(pad));
      length += pad;
    }
    bufferViews.push({ buffer: 0, byteOffset: length, byteLength: bytes.length, target: ARRAY_BUFFER });
    chunks.push(bytes);
    length += bytes.length;
    return bufferViews.length - 1;
  };
  const meshes: Record<string, unknown>[] = [];
  const nodes: Record<string, unknown>[] = [{ name: scene.name, children: [] as number[] }];
  const groupNode = new Map<string, number>();
  let hidden = false;
  for (const part of scene.parts) {
    const primitives = primitivesOf(part).map(({ material, tris }) => {
      const pos = new Float32Array(tris.length * 9);
      const ids = new Float32Array(tris.length * 3);
      const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
      tris.forEach((t, k) => {
        for (let i = 0; i < 9; i++) {
          const v = part.positions[t * 9 + i]!;
          pos[k * 9 + i] = v;
          const a = i % 3;
          if (v < min[a]!) min[a] = v;
          if (v > max[a]!) max[a] = v;
        }
        ids[k * 3] = ids[k * 3 + 1] = ids[k * 3 + 2] = part.ids[t]!;
      });
      const pv = addView(new Uint8Array(pos.buffer));
      accessors.push({ bufferView: pv, componentType: FLOAT, count: tris.length * 3, type: 'VEC3', min, max });
      const posAcc = accessors.length - 1;
      const iv = addView(new Uint8Array(ids.buffer));
      accessors.push({ bufferView: iv, componentType: FLOAT, count: tris.length * 3, type: 'SCALAR' });
      return { attributes: { POSITION: posAcc, _FLOOR_ID: accessors.length - 1 }, material, mode: TRIANGLES };
    });
    const label = part.group ? `${part.group}/${part.name}` : part.name;
    meshes.push({ name: label, primitives });
    const node: Record<string, unknown> = { name: label, mesh: meshes.length - 1 };
    if (part.hidden) {
      node.extensions = { KHR_node_visibility: { visible: false } };
      node.extras = { hidden: true };
      hidden = true;
    }
    nodes.push(node);
    const me = nodes.length - 1;
    let parent = 0;
    if (part.group) {
      let g = groupNode.get(part.group);
      if (g === undefined) {
        nodes.push({ name: part.group, children: [] as number[] });
        g = nodes.length - 1;
        groupNode.set(part.group, g);
        (nodes[0]!.children as number[]).push(g);
      }
      parent = g;
    }
    (nodes[parent]!.children as number[]).push(me);
  }
  const materials = scene.materials.map((m) => ({
    name: m.name,
    pbrMetallicRoughness: { baseColorFactor: [round6(linear(m.rgb[0])), round6(linear(m.rgb[1])), round6(linear(m.rgb[2])), 1], metallicFactor: 0, roughnessFactor: 0.9 },
    doubleSided: true,
  }));
  const bin = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    bin.set(c, at);
    at += c.length;
  }
  if ((nodes[0]!.children as number[]).length === 0) delete nodes[0]!.children;
  const json: Record<string, unknown> = {
    asset: { version: '2.0', generator: 'retrosim world export' },
    ...(hidden ? { extensionsUsed: ['KHR_node_visibility'] } : {}),
    scene: 0,
    scenes: [{ name: scene.name, nodes: [0] }],
    nodes,
    ...(meshes.length ? { meshes } : {}),
    ...(materials.length ? { materials } : {}),
    ...(accessors.length ? { accessors, bufferViews, buffers: [{ byteLength: bin.length }] } : {}),
    extras: { retrosim: { kind: scene.kind, units: 'metres', up: '+Y', floorId: scene.idMeaning } },
  };
  return { json, bin };
}

/** A part's triangles grouped by material, in material order (triangles in their order within each). */
function primitivesOf(part: ExportPart): { material: number; tris: number[] }[] {
  const by = new Map<number, number[]>();
  for (let t = 0; t < part.count; t++) {
    const m = part.materials[t]!;
    let list = by.get(m);
    if (!list) by.set(m, (list = []));
    list.push(t);
  }
  return [...by.entries()].sort((a, b) => a[0] - b[0]).map(([material, tris]) => ({ material, tris }));
}

/** A self-contained `.gltf`: JSON with the buffer as a base64 data URI. */
export function writeGltf(scene: ExportScene): Uint8Array {
  const { json, bin } = build(scene);
  if (bin.length > 0) (json.buffers as Record<string, unknown>[])[0]!.uri = `data:application/octet-stream;base64,${base64(bin)}`;
  return new TextEncoder().encode(JSON.stringify(json) + '\n');
}

/** A `.glb`: the 12-byte header, the JSON chunk (padded with spaces) and the BIN chunk (padded with zeros). */
export function writeGlb(scene: ExportScene): Uint8Array {
  const { json, bin } = build(scene);
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLen = (text.length + 3) & ~3;
  const binLen = (bin.length + 3) & ~3;
  const total = 12 + 8 + jsonLen + (bin.length > 0 ? 8 + binLen : 0);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x46546c67, true); // "glTF"
  v.setUint32(4, 2, true);
  v.setUint32(8, total, true);
  v.setUint32(12, jsonLen, true);
  v.setUint32(16, 0x4e4f534a, true); // "JSON"
  out.set(text, 20);
  out.fill(0x20, 20 + text.length, 20 + jsonLen);
  if (bin.length > 0) {
    const b = 20 + jsonLen;
    v.setUint32(b, binLen, true);
    v.setUint32(b + 4, 0x004e4942, true); // "BIN\0"
    out.set(bin, b + 8);
  }
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 of bytes (no platform Buffer/btoa, so the module runs anywhere). */
function base64(b: Uint8Array): string {
  const parts: string[] = [];
  let s = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i]! << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + (i + 1 < b.length ? B64[(n >> 6) & 63]! : '=') + (i + 2 < b.length ? B64[n & 63]! : '=');
    if (s.length >= 8192) {
      parts.push(s);
      s = '';
    }
  }
  parts.push(s);
  return parts.join('');
}

/**
 * Checks a saved ambient state before it is put back (a snapshot may come from a file): it must have the
 * shape of the live state it replaces - the same keys, numbers where there are numbers, typed arrays of the
 * same kind and length, arrays of the same length - except where one side is null and the other an object
 * (a TOBJ or a spark that exists in one and not the other), where the object need only be plain data of
 * bounded size. Anything else is a FormatError naming the path.
 */
import { FormatError } from '../../binary/format-error.js';

const FORMAT = 'piney-ambient save';
const MAX_DEPTH = 16;
const MAX_LOOSE_ARRAY = 4096;

function fail(path: string, detail: string): never {
  throw new FormatError(FORMAT, -1, `${path}: ${detail}`);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

/** Plain data of bounded size: finite numbers, booleans, strings, null, small arrays and objects. */
function checkLoose(v: unknown, path: string, depth: number): void {
  if (depth > MAX_DEPTH) fail(path, 'nested too deeply');
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) fail(path, 'not a finite number');
    return;
  }
  if (ArrayBuffer.isView(v)) {
    if ((v as unknown as ArrayLike<number>).length > MAX_LOOSE_ARRAY) fail(path, 'typed array too long');
    return;
  }
  if (Array.isArray(v)) {
    if (v.length > MAX_LOOSE_ARRAY) fail(path, 'array too long');
    v.forEach((x, i) => checkLoose(x, `${path}[${i}]`, depth + 1));
    return;
  }
  if (isPlainObject(v)) {
    for (const k of Object.keys(v)) checkLoose(v[k], `${path}.${k}`, depth + 1);
    return;
  }
  fail(path, `unexpected ${typeof v}`);
}

/** `value` has the shape of `template` (see the module comment). */
export function checkShape(template: unknown, value: unknown, path: string, depth = 0): void {
  if (depth > MAX_DEPTH) fail(path, 'nested too deeply');
  if (template === null || value === null) {
    if (template === null && value === null) return;
    const other = template === null ? value : template;
    if (!isPlainObject(other)) fail(path, 'null where a value was expected');
    if (value !== null) checkLoose(value, path, depth);
    return;
  }
  if (typeof template === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'expected a finite number');
    return;
  }
  if (typeof template === 'boolean' || typeof template === 'string') {
    if (typeof value !== typeof template) fail(path, `expected a ${typeof template}`);
    return;
  }
  if (ArrayBuffer.isView(template)) {
    if (!ArrayBuffer.isView(value) || value.constructor !== template.constructor) fail(path, `expected a ${template.constructor.name}`);
    const n = (template as unknown as ArrayLike<number>).length;
    if ((value as unknown as ArrayLike<number>).length !== n) fail(path, `expected ${n} elements`);
    return;
  }
  if (Array.isArray(template)) {
    if (!Array.isArray(value)) fail(path, 'expected an array');
    if (value.length !== template.length) fail(path, `expected ${template.length} elements, got ${value.length}`);
    template.forEach((t, i) => checkShape(t, value[i], `${path}[${i}]`, depth + 1));
    return;
  }
  if (isPlainObject(template)) {
    if (!isPlainObject(value)) fail(path, 'expected an object');
    const tk = Object.keys(template);
    const vk = Object.keys(value);
    if (tk.length !== vk.length || tk.some((k) => !(k in value))) fail(path, `expected the keys ${tk.join(', ')}`);
    for (const k of tk) checkShape(template[k], value[k], `${path}.${k}`, depth + 1);
    return;
  }
  fail(path, `cannot check a ${typeof template}`);
}

/** node:path in the browser bundle: the POSIX subset the simulation's asset lookups use. */
import { normalisePath } from './virtual-files.js';

export function join(...parts: string[]): string {
  return normalisePath(parts.join('/'));
}

export function resolve(...parts: string[]): string {
  let abs = '';
  for (const p of parts) abs = p.startsWith('/') ? p : `${abs}/${p}`;
  return normalisePath(abs);
}

export function dirname(path: string): string {
  const p = normalisePath(path);
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

export function basename(path: string): string {
  const p = normalisePath(path);
  return p.slice(p.lastIndexOf('/') + 1);
}

export function extname(path: string): string {
  const b = basename(path);
  const i = b.lastIndexOf('.');
  return i <= 0 ? '' : b.slice(i);
}

export const sep = '/';

export default { join, resolve, dirname, basename, extname, sep };

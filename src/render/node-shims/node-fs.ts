/**
 * node:fs in the browser bundle (vite.sandbox.config.ts aliases it here): reads come from the virtual files the
 * page registered; anything else fails as Node would for a missing file.
 */
import { normalisePath, virtualFile, virtualPathExists } from './virtual-files.js';

function notFound(path: string): Error {
  const e = new Error(`ENOENT: no such file in the browser's virtual files, open '${normalisePath(path)}'`) as Error & { code: string };
  e.code = 'ENOENT';
  return e;
}

export function existsSync(path: string): boolean {
  return virtualPathExists(String(path));
}

export function readFileSync(path: string, encoding?: string | { encoding?: string }): Uint8Array | string {
  const bytes = virtualFile(String(path));
  if (!bytes) throw notFound(String(path));
  const enc = typeof encoding === 'string' ? encoding : encoding?.encoding;
  return enc ? new TextDecoder('utf-8').decode(bytes) : bytes;
}

function unsupported(name: string): never {
  throw new Error(`node:fs ${name} is not available in the browser`);
}

export const writeFileSync = (): never => unsupported('writeFileSync');
export const mkdirSync = (): never => unsupported('mkdirSync');
export const readdirSync = (): never => unsupported('readdirSync');
export const statSync = (): never => unsupported('statSync');

export default { existsSync, readFileSync, writeFileSync, mkdirSync, readdirSync, statSync };

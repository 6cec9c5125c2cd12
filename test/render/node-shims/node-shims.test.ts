import { expect, test } from 'vitest';
import * as fs from '../../../src/render/node-shims/node-fs.js';
import * as path from '../../../src/render/node-shims/node-path.js';
import { fileURLToPath } from '../../../src/render/node-shims/node-url.js';
import { normalisePath, registerVirtualFile } from '../../../src/render/node-shims/virtual-files.js';

test('paths normalise to /a/b form', () => {
  expect(normalisePath('a//b/./c/../d')).toBe('/a/b/d');
  expect(normalisePath('\\x\\y')).toBe('/x/y');
  expect(normalisePath('/../..')).toBe('/');
  expect(path.join('/src/worlds', '..', 'assets', 'piney', 'x.json')).toBe('/src/assets/piney/x.json');
  expect(path.dirname('/a/b/c.ts')).toBe('/a/b');
  expect(path.dirname('/a')).toBe('/');
  expect(path.resolve('/a/b', 'c', '/d', 'e')).toBe('/d/e');
  expect(path.extname('/a/demo.trak')).toBe('.trak');
  expect(path.extname('/a/.hidden')).toBe('');
  expect(fileURLToPath('http://127.0.0.1:5173/src/worlds/piney/tables.ts?v=1')).toBe('/src/worlds/piney/tables.ts');
});

test('the virtual files serve what was registered, and the walk up from a module finds them', () => {
  const bytes = new TextEncoder().encode('{"x":1}');
  registerVirtualFile('/assets/test-shim/file.json', bytes);
  expect(fs.existsSync('/assets/test-shim/file.json')).toBe(true);
  expect(fs.existsSync('/assets/test-shim')).toBe(true);
  expect(fs.existsSync('/assets/test-shim/other.json')).toBe(false);
  expect(fs.readFileSync('/assets/test-shim/file.json')).toBe(bytes);
  expect(fs.readFileSync('/assets/test-shim/file.json', 'utf8')).toBe('{"x":1}');
  expect(() => fs.readFileSync('/nope')).toThrow(/ENOENT/);
  expect(() => fs.writeFileSync()).toThrow(/not available/);
  // As the Piney tables lookup walks: from the module's folder up to the root.
  let dir = path.dirname(fileURLToPath('http://h/app/index-abc.js'));
  let found = '';
  for (let i = 0; i < 8 && !found; i++) {
    const p = path.join(dir, 'assets', 'test-shim', 'file.json');
    if (fs.existsSync(p)) found = p;
    dir = path.dirname(dir);
  }
  expect(found).toBe('/assets/test-shim/file.json');
});

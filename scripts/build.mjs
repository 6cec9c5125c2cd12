#!/usr/bin/env node
/**
 * `npm run build`: compiles the project as `tsc -p tsconfig.build.json` does, through the same compiler, but
 * never rewrites a file of dist/ in place. A file whose compiled text is unchanged is left alone; a changed one
 * is written beside it and renamed over it, which replaces it whole. So a process reading dist/ while a build
 * runs (a test spawning the CLI while `npm run fuzz` or a second `npm test` rebuilds) always reads complete
 * files, and a rebuild of the same sources changes nothing on disk.
 *
 * Plain JavaScript, as it runs before anything is compiled. Usage: node scripts/build.mjs [tsconfig]
 */
import { readFileSync, renameSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { buildWasmKernels } from './wasm-kernels.mjs';

const project = process.argv[2] ?? 'tsconfig.build.json';
const host = {
  getCanonicalFileName: (f) => (ts.sys.useCaseSensitiveFileNames ? f : f.toLowerCase()),
  getCurrentDirectory: () => ts.sys.getCurrentDirectory(),
  getNewLine: () => ts.sys.newLine,
};

function report(diagnostics) {
  if (diagnostics.length === 0) return;
  const text = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host);
  process.stderr.write(text);
}

const config = ts.getParsedCommandLineOfConfigFile(project, {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    report([d]);
    process.exit(1);
  },
});
if (!config) process.exit(1);
if (config.errors.length) {
  report(config.errors);
  process.exit(1);
}

let written = 0;
let unchanged = 0;
/** Writes `text` to `file` whole: unchanged files are not touched, changed ones are renamed into place. */
function writeWhole(file, text, bom) {
  const data = bom ? '\uFEFF' + text : text;
  try {
    if (readFileSync(file, 'utf8') === data) {
      unchanged++;
      return;
    }
  } catch {
    // missing: write it
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  written++;
}

// src/version.ts carries package.json's version as a constant (the core and the browser build read no files):
// brought up to date before compiling, so a version bump reaches the CLI, RUNTIME_VERSION and replays.
const VERSION_FILE = fileURLToPath(new URL('../src/version.ts', import.meta.url));
{
  const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
  if (typeof version !== 'string' || !/^[0-9A-Za-z.+-]{1,64}$/.test(version)) {
    process.stderr.write(`build: package.json's version ${JSON.stringify(version)} is not a version\n`);
    process.exit(1);
  }
  const text = readFileSync(VERSION_FILE, 'utf8');
  const updated = text.replace(/^export const PACKAGE_VERSION = '[^']*';$/m, `export const PACKAGE_VERSION = '${version}';`);
  if (!/^export const PACKAGE_VERSION = '/m.test(text)) {
    process.stderr.write('build: src/version.ts has no PACKAGE_VERSION line\n');
    process.exit(1);
  }
  if (updated !== text) writeWhole(VERSION_FILE, updated, false);
}

// The WebAssembly kernels (scripts/wasm-kernels.mjs): their bytes' modules under src/ (which the TypeScript
// imports) and under dist/, before compiling.
try {
  written += await buildWasmKernels({ dist: config.options.outDir ? relative(fileURLToPath(new URL('..', import.meta.url)), config.options.outDir) : 'dist' });
} catch (e) {
  process.stderr.write(`build: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}

const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
const emitted = program.emit(undefined, (file, text, bom) => writeWhole(file, text, bom));
const diagnostics = ts.sortAndDeduplicateDiagnostics([...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]);
report(diagnostics);
const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
if (process.env.RETROSIM_BUILD_VERBOSE) process.stderr.write(`build: ${written} file(s) written, ${unchanged} unchanged\n`);
// As tsc: exit 2 when there were errors (the files are emitted all the same), 0 otherwise.
process.exit(errors > 0 ? 2 : 0);

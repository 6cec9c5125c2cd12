/**
 * The RunnerEnv of a worker (a local pool thread, or a thread of a `retrosim worker` process): inputs from
 * the bytes it was sent, the shipped field tables, and scenario modules from their bytes.
 *
 * A scenario module arrives as bytes; it is written once to a per-user cache folder under the system's
 * temporary folder, named by its SHA-256 (written under a temporary name, then renamed, so processes
 * sharing the folder never see half a file), checked to be those bytes, and imported from there with
 * `loadScenarioFile`, recorded under the path the batch file gave it.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { defaultPineyTables, loadScenarioFile, type ScenarioDef } from '../index.js';
import type { BlobRef } from './payload.js';
import type { RunnerEnv } from './runner.js';
import { sha256Hex } from './runner.js';

/** The folder scenario modules are written to: private to this user. */
export function scenarioCacheDir(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const dir = join(tmpdir(), `retrosim-batch-${uid}`, 'scenarios');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  if (typeof process.getuid === 'function' && st.uid !== uid) throw new Error(`${dir} belongs to another user: refusing to load scenario modules from it`);
  return dir;
}

export class WorkerEnv implements RunnerEnv {
  /** Inputs this worker holds, by SHA-256. */
  readonly blobs = new Map<string, Uint8Array>();
  private readonly scenarios = new Map<string, Promise<ScenarioDef>>();
  private dir: string | undefined;

  blob(ref: BlobRef): Uint8Array {
    const b = this.blobs.get(ref.sha256);
    if (!b) throw new Error(`input ${ref.sha256} was not sent to this worker`);
    return b;
  }

  pineyTables() {
    return defaultPineyTables();
  }

  scenarioModule(source: string, ref: BlobRef): Promise<ScenarioDef> {
    const id = `${ref.sha256}\0${source}`;
    let p = this.scenarios.get(id);
    if (!p) {
      p = this.load(source, ref);
      this.scenarios.set(id, p);
      p.catch(() => this.scenarios.delete(id));
    }
    return p;
  }

  private async load(source: string, ref: BlobRef): Promise<ScenarioDef> {
    const bytes = this.blob(ref);
    this.dir ??= scenarioCacheDir();
    const ext = source.toLowerCase().endsWith('.cjs') ? '.cjs' : '.mjs';
    const path = join(this.dir, `${ref.sha256}${ext}`);
    let have = false;
    try {
      have = sha256Hex(new Uint8Array(readFileSync(path))) === ref.sha256;
    } catch {
      have = false;
    }
    if (!have) {
      const tmp = `${path}.${process.pid}-${threadId}.tmp`;
      writeFileSync(tmp, bytes, { mode: 0o600 });
      renameSync(tmp, path);
    }
    return (await loadScenarioFile(path, source)).scenario;
  }

  now(): number {
    return performance.now();
  }
}

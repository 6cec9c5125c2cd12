/**
 * The inputs of a batch by content: each set of bytes is named by its SHA-256 and kept once however many
 * jobs use it. Small shared inputs (worlds and their partner files) stay in memory; replays to verify,
 * which are many and each used once, are remembered by path and read again when a job needs them (and
 * checked to be the same bytes).
 *
 * Scenario modules are not inputs sent to workers: the store remembers where each of the batch's modules
 * is on disk, by its module graph's hash, so the local threads can load them from there (their allow-list).
 */
import { readBounded } from '../node/bounded-read.js';
import type { BlobRef } from './payload.js';
import { sha256Hex } from './runner.js';

export class BlobStore {
  private readonly memory = new Map<string, Uint8Array>();
  private readonly files = new Map<string, { path: string; bytes: number }>();
  private readonly moduleFiles = new Map<string, string>();

  /** Remembers that the scenario module at `path` (absolute) has the module graph hash `graph`. */
  addModule(graph: string, path: string): void {
    if (!this.moduleFiles.has(graph)) this.moduleFiles.set(graph, path);
  }

  /** The batch's scenario modules: module graph hash -> absolute path. */
  modules(): ReadonlyMap<string, string> {
    return this.moduleFiles;
  }

  /** Keeps `bytes` in memory; returns their name. */
  add(bytes: Uint8Array): BlobRef {
    const sha256 = sha256Hex(bytes);
    if (!this.memory.has(sha256)) this.memory.set(sha256, bytes);
    return { sha256, bytes: bytes.length };
  }

  /** Remembers that `path` holds `bytes` (read again on `get`); returns their name. */
  addFile(path: string, bytes: Uint8Array): BlobRef {
    const sha256 = sha256Hex(bytes);
    if (!this.memory.has(sha256) && !this.files.has(sha256)) this.files.set(sha256, { path, bytes: bytes.length });
    return { sha256, bytes: bytes.length };
  }

  has(sha256: string): boolean {
    return this.memory.has(sha256) || this.files.has(sha256);
  }

  /** The bytes named `sha256`; throws when unknown or when a file changed since it was read. */
  get(sha256: string): Uint8Array {
    const m = this.memory.get(sha256);
    if (m) return m;
    const f = this.files.get(sha256);
    if (f === undefined) throw new Error(`input ${sha256} is not known`);
    const path = f.path;
    let b: Uint8Array;
    try {
      // Bounded by the size it had: a file swapped for an endless one is refused, not read without end.
      b = readBounded(path, f.bytes);
    } catch (e) {
      throw new Error(`cannot read ${path} again (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (sha256Hex(b) !== sha256) throw new Error(`${path} changed since the batch started`);
    return b;
  }
}

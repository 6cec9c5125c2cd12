/**
 * Which world a replay ran on: its kind, name, where it came from and its content hash, so that verify and
 * seek can check that the world given is the same bytes.
 */
import { FormatError } from '../binary/format-error.js';
import { fnv1a64Hex } from '../binary/fnv.js';
import type { CollisionWorld } from '../worlds/world.js';
import type { WorldIdentity } from './format.js';

export type { WorldIdentity };

/** A world with the identity a replay records for it, and the bytes that identity hashes. */
export interface OpenedWorld {
  world: CollisionWorld;
  identity: WorldIdentity;
  bytes: Uint8Array;
}

/** Identity of a world file: kind, name, where it came from and its content hash (FNV-1a 64). */
export function worldIdentity(world: CollisionWorld, bytes: Uint8Array, source: string): WorldIdentity {
  return { kind: world.kind, name: world.name, source, contentHash: fnv1a64Hex(bytes), byteLength: bytes.length };
}

/** Splits a recorded "file:" source into the world path and the optional MAP path. */
export function parseFileSource(source: string): { path: string; mapPath?: string } {
  const body = source.slice('file:'.length);
  const i = body.lastIndexOf(';map:');
  return i < 0 ? { path: body } : { path: body.slice(0, i), mapPath: body.slice(i + 5) };
}

/** Throws a FormatError unless an opened world is the one a replay names (same kind, size and content hash). */
export function checkWorldIdentity(expected: WorldIdentity, got: WorldIdentity): void {
  if (expected.contentHash !== got.contentHash || expected.byteLength !== got.byteLength || expected.kind !== got.kind) {
    throw new FormatError(
      'replay chunk HEAD (header)',
      -1,
      `the replay ran on ${expected.source} (${expected.kind}, ${expected.byteLength} bytes, content hash ${expected.contentHash}); the world given is ${got.kind}, ${got.byteLength} bytes with hash ${got.contentHash}`,
    );
  }
}

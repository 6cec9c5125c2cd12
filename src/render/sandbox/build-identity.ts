/**
 * The page's runtime as a netplay `join` names it. A browser cannot hash the files it runs, so the hash is
 * fixed when the bundle is built: vite.sandbox.config.ts hashes the sources it is built from (every file of
 * src/ and the package lock) and defines it as `__RETROSIM_BUILD_HASH__`. Two pages of one build name the same
 * runtime (kind "build"); a page built from other sources is refused by a room of another build. A Node client
 * names the hash of its built files instead (kind "files"): the relay compares a browser with a Node client by
 * their versions only. Without the definition (the page's modules run by Node tests), the page names its
 * version alone (kind "version").
 */
import type { RuntimeIdentity } from '../../netplay/protocol.js';
import { RUNTIME_VERSION } from '../../replay/format.js';

declare const __RETROSIM_BUILD_HASH__: string | undefined;

/** The runtime this page names when it joins a room. */
export function pageRuntime(): RuntimeIdentity {
  const hash = typeof __RETROSIM_BUILD_HASH__ === 'string' ? __RETROSIM_BUILD_HASH__ : '';
  return /^[0-9a-f]{64}$/.test(hash) ? { version: RUNTIME_VERSION, kind: 'build', hash } : { version: RUNTIME_VERSION, kind: 'version' };
}

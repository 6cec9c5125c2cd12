/**
 * `--wasm off|on|auto` on the commands that walk line of sight: the recorded checksums hold with the
 * WebAssembly kernel and without it (the 10,000-agent matrix on the default field on two threads; the default
 * scenario with 100,000 agents on one thread and on two; the GTA town's 1,000-agent matrix on one thread and two;
 * the Rugrats demo level's matrix and a run on it), the commands say which walk ran, and a value that is not a
 * mode is a usage error on one line.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const FIELD = 'assets/worlds/piney/default.field.json';

describe('--wasm', () => {
  it('los: the 10,000-agent matrix on two threads has the same checksum with the kernel and without', () => {
    for (const mode of ['off', 'on', 'auto'] as const) {
      const r = runCli(['los', '--world', FIELD, '--agents', '10000', '--frames', '20', '--threads', '2', '--wasm', mode, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { checksum: string; wasm: boolean; segments: number };
      expect(out.checksum, `--wasm ${mode}`).toBe('0xd75fd4e1075a5a12');
      // auto takes the kernel on V8 (Node).
      expect(out.wasm, `--wasm ${mode}`).toBe(mode !== 'off');
      expect(out.segments).toBeGreaterThan(1_000_000);
    }
  });

  it('run: 100,000 agents for 120 frames end on the same hash on one thread and two, with the kernel and without', () => {
    for (const threads of ['1', '2']) {
      for (const mode of ['off', 'on'] as const) {
        const r = runCli(['run', '--agents', '100000', '--frames', '120', '--no-replay', '--threads', threads, '--wasm', mode, '--json']);
        expect(r.code, r.stderr).toBe(0);
        const out = JSON.parse(r.stdout) as { finalHash: string; wasm: boolean; threads: number };
        expect(out.finalHash, `--threads ${threads} --wasm ${mode}`).toBe('0xb9c411bc1c3cc427');
        expect(out.wasm).toBe(mode === 'on');
        expect(out.threads).toBe(Number(threads));
      }
    }
  });

  it('los: the GTA town\'s matrix has the same checksum with its walk in WebAssembly and without, on one thread and two', () => {
    const sums = new Set<string>();
    for (const threads of ['1', '2']) {
      for (const mode of ['off', 'on', 'auto'] as const) {
        const r = runCli(['los', '--world', 'gta-town', '--agents', '1000', '--frames', '10', '--threads', threads, '--wasm', mode, '--json']);
        expect(r.code, r.stderr).toBe(0);
        const out = JSON.parse(r.stdout) as { checksum: string; wasm: boolean; segments: number; visible: number };
        sums.add(out.checksum);
        // auto takes the walk on V8 (Node), where it was measured faster.
        expect(out.wasm, `--threads ${threads} --wasm ${mode}`).toBe(mode !== 'off');
        expect(out.segments).toBeGreaterThan(100_000);
        expect(out.visible).toBeLessThan(out.segments);
      }
    }
    expect([...sums]).toEqual(['0xd003f860549c3083']);
  });

  it('los and run on the Rugrats demo level: the same checksum and hash with its kernel and without', () => {
    for (const mode of ['off', 'on', 'auto'] as const) {
      const r = runCli(['los', '--world', 'rugrats-demo', '--agents', '2000', '--frames', '10', '--threads', '2', '--wasm', mode, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { checksum: string; wasm: boolean; segments: number };
      // The JavaScript walk's checksum, as before the kernel existed.
      expect(out.checksum, `--wasm ${mode}`).toBe('0x69b15107376251f7');
      // auto takes the kernel on V8 (Node).
      expect(out.wasm, `--wasm ${mode}`).toBe(mode !== 'off');
      expect(out.segments).toBeGreaterThan(1_000_000);
    }
    const hashes = (['off', 'on'] as const).map((mode) => {
      const r = runCli(['run', '--world', 'rugrats-demo', '--agents', '2000', '--frames', '120', '--no-replay', '--wasm', mode, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { finalHash: string; wasm: boolean };
      expect(out.wasm).toBe(mode === 'on');
      return out.finalHash;
    });
    expect(hashes[1]).toBe(hashes[0]);
    // The JavaScript walk's hash, as before the kernel existed.
    expect(hashes[0]).toBe('0x55b35b3afae65c81');
  });

  it('a world without kernels runs its JavaScript walk under any mode, and says so', () => {
    const r = runCli(['los', '--world', 'llama-demo', '--agents', '50', '--frames', '2', '--wasm', 'on', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { wasm: boolean }).wasm).toBe(false);
  });

  it('a value that is not a mode is a usage error naming the option, on one line', () => {
    for (const cmd of [['los', '--world', FIELD], ['run', '--frames', '1'], ['bench', 'nothing-matches']]) {
      const r = runCli([...cmd, '--wasm', 'fast']);
      expect(r.code, `${cmd[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('--wasm must be off, on or auto (got "fast")');
    }
  });
});

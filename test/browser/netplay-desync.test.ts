/**
 * A desync shows as an event on the page, in Chromium and in Firefox: a room of three through a real relay —
 * a Chromium page creates it, a Firefox page joins through its link, and a Node player whose simulation is one
 * agent's step off from the start (a real divergence, test/netplay/doctored-client.mjs) takes the third seat.
 * Both pages tell, over the map, that the room desynced with player 3 and at which frame, and their panels say
 * the same frame.
 */
import { spawn } from 'node:child_process';
import type { Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cli, killAll, repoRoot, waitFor, type Proc } from '../batch/helpers.js';
import { openSandbox, openSandboxInFirefox, type FirefoxHarness, type Harness, startBothBrowsers } from './harness.js';

const WORLD = { world: 'rugrats-demo', agents: '6' };

interface AnyPage {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

let relay: Proc;
let h: Harness;
let ff: FirefoxHarness;
const others: ReturnType<typeof spawn>[] = [];

beforeAll(async () => {
  relay = cli(['relay', '--json']);
  ({ h, ff } = await startBothBrowsers());
});

afterAll(async () => {
  for (const p of others) p.kill('SIGKILL');
  await ff?.close();
  await h?.close();
  await killAll();
});

const room = (p: AnyPage) => p.evaluate(() => window.retrosim.room() as Record<string, any> | null, undefined);
const eventTexts = async (p: AnyPage) => (((await room(p))?.['events'] ?? []) as { kind: string; text: string }[]).map((e) => `${e.kind}: ${e.text}`);
const shownEvents = (p: AnyPage) => p.evaluate(() => Array.from(document.querySelectorAll('#play-events li')).map((li) => li.textContent ?? ''), undefined);

test('a peer whose simulation differs: both pages show the desync as an event naming the seat and the frame', async () => {
  const first = await waitFor('the relay URL', () => {
    if (relay.child.exitCode !== null) throw new Error(`relay exited: ${relay.stderr()}`);
    const nl = relay.stdout().indexOf('\n');
    return nl >= 0 ? relay.stdout().slice(0, nl) : null;
  });
  const url = (JSON.parse(first) as { url: string }).url;

  const chromium: Page = await openSandbox(h, { ...WORLD, relay: url });
  await chromium.click('#play-together > summary');
  await chromium.selectOption('#play-players', '3');
  await chromium.click('#play-create');
  const link = await waitFor('the room link', async () => ((await room(chromium as unknown as AnyPage))?.['link'] as string) || null);
  const q = new URL(link).searchParams;
  const firefox: FirefoxPage = await openSandboxInFirefox(ff, h.url, Object.fromEntries(q));
  await waitFor('Firefox seated', async () => ((await room(firefox as unknown as AnyPage))?.['stats']?.player ?? -1) >= 0, 300_000, 100);

  // The third seat: a Node player one agent's step off from the start.
  const liar = spawn(process.execPath, ['test/netplay/doctored-client.mjs', url, q.get('room')!, 'state', '1', '1200'], { cwd: repoRoot, stdio: 'ignore' });
  others.push(liar);

  const pages: [string, AnyPage][] = [['Chromium', chromium as unknown as AnyPage], ['Firefox', firefox as unknown as AnyPage]];
  for (const [name, p] of pages) {
    const told = await waitFor(`${name} told of the desync`, async () => (await eventTexts(p)).find((t) => t.startsWith('desync: ')) ?? null, 300_000, 100);
    const m = /^desync: desync at frame (\d+) with player 3$/.exec(told);
    expect(m, `${name}: ${told}`).not.toBeNull();
    const frame = Number(m![1]);
    // shown over the map, and the panel says the same frame
    await waitFor(`${name} shows it over the map`, async () => (await shownEvents(p)).includes(`desync at frame ${frame} with player 3`), 120_000, 100);
    const r = (await room(p))!;
    expect(r['stats'].desyncs, name).toBeGreaterThan(0);
    expect((r['desyncs'] as { frame: number }[])[0]!.frame, name).toBe(frame);
  }
});

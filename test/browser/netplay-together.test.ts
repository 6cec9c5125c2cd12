/**
 * "Play together" with people you can tell apart, for real: `retrosim relay` (40 ± 20 ms), a room of four seats —
 * a Chromium page that creates it under the name "Ada", a second Chromium page opened by one click on the
 * panel's Open link (it joins under the name this browser kept, "Bea"), a Firefox page that joins through the
 * room's link under "Grace", and a Node bot (`retrosim netplay join --name Linus`). Every page knows every
 * seat's name, labels each seat's player in the seat's colour with "you" over its own, and its legend speaks to
 * its own seat. The room's events show over the map: the joins, a wait naming the peer that holds the room back
 * (a frozen page), rollbacks, a hidden tab (the others are told, and the hidden page keeps ticking on its
 * worker's timer, so the room does not stall), and the bot leaving. The panel shows the relay's command.
 */
import type { Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cli, killAll, waitFor, type Proc } from '../batch/helpers.js';
import { SEAT_COLOURS } from '../../src/render/scene/palette.js';
import { openSandbox, openSandboxInFirefox, type FirefoxHarness, type Harness, startBothBrowsers } from './harness.js';

const WORLD = { world: 'rugrats-demo', agents: '10' };
const NAMES = ['Ada', 'Bea', 'Grace', 'Linus'];

interface AnyPage {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

let relay: Proc;
let h: Harness;
let ff: FirefoxHarness;

beforeAll(async () => {
  relay = cli(['relay', '--json', '--delay', '40', '--jitter', '20']);
  ({ h, ff } = await startBothBrowsers());
});

afterAll(async () => {
  await ff?.close();
  await h?.close();
  await killAll();
});

const room = (p: AnyPage) => p.evaluate(() => window.retrosim.room() as Record<string, any> | null, undefined);
const stats = async (p: AnyPage) => (await room(p))?.['stats'] as Record<string, any> | undefined;
const seated = (p: AnyPage) => waitFor('a seat', async () => ((await stats(p))?.['player'] ?? -1) >= 0, 300_000, 100);
const eventTexts = async (p: AnyPage) => ((await room(p))?.['events'] as { kind: string; text: string }[]).map((e) => `${e.kind}: ${e.text}`);
const hex = (c: number) => `#${c.toString(16).padStart(6, '0')}`;

test('four players you can tell apart: names, labels and rings in the seat colours, a legend per viewer, the room\'s events, a hidden tab that keeps ticking', async () => {
  const first = await waitFor('the relay URL', () => {
    if (relay.child.exitCode !== null) throw new Error(`relay exited: ${relay.stderr()}`);
    const nl = relay.stdout().indexOf('\n');
    return nl >= 0 ? relay.stdout().slice(0, nl) : null;
  });
  const url = (JSON.parse(first) as { url: string }).url;

  // Firefox opens the page with no room: the panel says how to start a relay, and offers its address.
  const firefox: FirefoxPage = await openSandboxInFirefox(ff, h.url, WORLD);
  const help = await firefox.evaluate(() => ({ text: document.getElementById('play-relay-help')!.textContent, hidden: document.getElementById('play-relay-help')!.hidden, relay: (document.getElementById('play-relay') as HTMLInputElement).value }));
  expect(help).toEqual({ text: expect.stringContaining('npx retrosim relay --port 8787'), hidden: false, relay: 'ws://127.0.0.1:8787' });
  // Grace types her name (the browser keeps it for the links it opens).
  await firefox.evaluate(() => {
    (document.getElementById('play-together') as HTMLDetailsElement).open = true;
  }, undefined);
  await firefox.type('#play-name', 'Grace');
  await firefox.evaluate(() => document.getElementById('play-name')!.dispatchEvent(new Event('change')), undefined);

  // Ada creates a room of four in Chromium.
  const ada: Page = await openSandbox(h, { ...WORLD, relay: url });
  await ada.click('#play-together > summary');
  await ada.fill('#play-name', 'Ada');
  await ada.selectOption('#play-players', '4');
  await ada.click('#play-create');
  await seated(ada as unknown as AnyPage);
  const link = ((await room(ada as unknown as AnyPage))!['link'] as string);
  expect(await ada.getAttribute('#play-open', 'href')).toBe(link);
  expect(await ada.isVisible('#play-relay-help')).toBe(false);

  // One click on Open: a new page that joins the room, under the name this browser kept ("Bea", set here as a
  // person would have typed it on an earlier visit).
  await ada.evaluate(() => localStorage.setItem('retrosim.playerName', 'Bea'));
  const [bea] = await Promise.all([h.browser.waitForEvent('page'), ada.click('#play-open')]);
  const beaErrors: string[] = [];
  bea.on('pageerror', (e) => beaErrors.push(String(e)));
  await bea.waitForFunction(() => (window as unknown as { retrosim?: { ready: unknown } }).retrosim?.ready !== undefined, null, { timeout: 300_000 });
  await seated(bea as unknown as AnyPage);
  expect(new URL(bea.url()).search).toBe(new URL(link).search);

  // Firefox opens the room's link: it joins as Grace.
  await firefox.goto(link, { timeout: 300_000 });
  await firefox.waitForFunction(() => (window as unknown as { retrosim?: unknown }).retrosim !== undefined, { timeout: 300_000 });
  await seated(firefox as unknown as AnyPage);

  // The Node bot takes the last seat and stops at frame 900 (then leaves).
  const bot = cli(['netplay', 'join', '--relay', url, '--room', new URL(link).searchParams.get('room')!, '--name', 'Linus', '--frames', '900']);
  const pages: [string, AnyPage][] = [['Ada', ada as unknown as AnyPage], ['Bea', bea as unknown as AnyPage], ['Grace', firefox as unknown as AnyPage]];
  for (const [name, p] of pages) await waitFor(`${name} playing`, async () => (await stats(p))?.['state'] === 'running', 300_000, 100);

  // Every page knows every seat's name, and sits where it joined.
  for (const [i, [name, p]] of pages.entries()) {
    const s = (await stats(p))!;
    expect(s['names'], name).toEqual(NAMES);
    expect(s['player'], name).toBe(i);
    expect((await room(p))!['panel'].rows, name).toContainEqual(['you', `player ${i + 1} (${name}) of 4`]);
  }
  await waitFor('the bot to say the seats', () => bot.stderr().includes('netplay: seats: player 1 (Ada), player 2 (Bea), player 3 (Grace), player 4 (Linus, you)'), 300_000, 100);

  // The joins were events on every page, shown over the map.
  for (const [name, p] of pages) {
    const texts = await eventTexts(p);
    expect(texts, name).toContain('join: player 4 (Linus) joined');
    expect(texts.filter((t) => t.startsWith('join: you joined as')), name).toEqual([`join: you joined as player ${NAMES.indexOf(name) + 1} (${name})`]);
  }
  // what the map shows is the page's latest events (a few, for a few seconds)
  const shownOnGrace = await firefox.evaluate(() => Array.from(document.querySelectorAll('#play-events li')).map((li) => li.textContent ?? ''));
  const graceEvents = ((await room(firefox as unknown as AnyPage))!['events'] as { text: string }[]).map((e) => e.text);
  for (const t of shownOnGrace) expect(graceEvents).toContain(t);

  // Each page labels every seat's player in its colour, "you" over its own; the legend speaks to that seat.
  await waitFor('the labels drawn', async () => {
    for (const [name, p] of pages) {
      const labels = (await room(p))!['labels'] as ({ text: string; colour: number } | null)[];
      const k = NAMES.indexOf(name);
      if (!labels[k]) return false;
      expect(labels[k], name).toMatchObject({ text: `you (${name})`, colour: SEAT_COLOURS[k] });
      for (let j = 0; j < 4; j++) if (j !== k && labels[j]) expect(labels[j], `${name} sees seat ${j}`).toMatchObject({ text: `player ${j + 1} (${NAMES[j]})`, colour: SEAT_COLOURS[j] });
    }
    return true;
  }, 120_000, 100);
  const legend = (p: AnyPage) => p.evaluate(() => document.getElementById('legend')!.textContent ?? '', undefined);
  expect(await legend(ada as unknown as AnyPage)).toContain('an agent that sees you');
  const graceLegend = await legend(firefox as unknown as AnyPage);
  expect(graceLegend).toContain('you: player 3 (Grace)');
  expect(graceLegend).toContain('an agent that sees you');
  // and the sight drawn on each page is its own seat's: every agent watches that page's player
  for (const [name, p] of pages) {
    const you = (await room(p))!['you'] as number;
    const agents = (await p.evaluate(() => window.retrosim.entitiesOnScreen(), undefined)).filter((x) => x.agent);
    expect(agents.length, name).toBeGreaterThan(0);
    for (const a of agents) expect(a.watches, `${name}: agent ${a.id}`).toBe(you);
  }
  expect(graceLegend).toContain('player 4 (Linus): ringed and named in this colour');
  // the "you" row of the panel in the seat's colour
  expect(await firefox.evaluate(() => (document.querySelector('#play-status tr:nth-child(2) td:last-child') as HTMLElement).style.color)).toBe('rgb(187, 221, 0)');
  expect(hex(SEAT_COLOURS[2]!)).toBe('#bbdd00');

  // A frozen page holds the room back: the others wait, naming it. Grace's page (Firefox, its own process) is
  // kept busy; Chromium's pages of one site may share a renderer, so freezing one of them there can stop the
  // others as well.
  // (on a loaded machine Bea may lag too: the wait then names both, "waiting for player 2 (Bea) and player 3 (Grace)")
  const waitsForGrace = async () => (await eventTexts(ada as unknown as AnyPage)).filter((t) => /^wait: waiting for .*player 3 \(Grace\)/.test(t)).length;
  const waitedBefore = await waitsForGrace();
  // Busy for 8 s at a time, under the relay's 20 s without inputs after which it drops a player, until Ada tells.
  const shownOnBea = waitFor('the wait shown on Bea\'s map', () => bea.evaluate(() => Array.from(document.querySelectorAll('#play-events li')).some((li) => /^waiting for .*player 3 \(Grace\)/.test(li.textContent!))), 300_000, 100);
  for (let burst = 0; burst < 8 && (await waitsForGrace()) <= waitedBefore; burst++) {
    await firefox.evaluate(() => {
      const end = performance.now() + 8_000;
      while (performance.now() < end);
    }, undefined);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  if ((await waitsForGrace()) <= waitedBefore) throw new Error(`Ada never told a wait for Grace; Ada's room: ${JSON.stringify({ stats: (await room(ada as unknown as AnyPage))?.['stats'], events: await eventTexts(ada as unknown as AnyPage) })}`);
  // and shown over the map, on the other pages too
  await shownOnBea;

  // Grace's tab is hidden: the others are told, and her page keeps ticking on its worker's timer, so the room
  // goes on (without it, it would stop within the 8 frames the others may predict).
  await firefox.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { get: () => 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, undefined);
  await waitFor('Ada told Grace is hidden', async () => (await eventTexts(ada as unknown as AnyPage)).includes("hidden: player 3 (Grace)'s tab is hidden: its moves may come late"), 120_000, 100);
  expect((await room(ada as unknown as AnyPage))!['panel'].rows).toContainEqual(['hidden', "player 3 (Grace)'s tab is hidden"]);
  const from = (await stats(ada as unknown as AnyPage))!['confirmedFrame'] as number;
  const graceFrom = (await stats(firefox as unknown as AnyPage))!['frame'] as number;
  await waitFor('the room going on while Grace is hidden', async () => ((await stats(ada as unknown as AnyPage))!['confirmedFrame'] as number) >= from + 120, 300_000, 100);
  const hidden = (await room(firefox as unknown as AnyPage))!;
  expect(hidden['hiddenWakeUps']).toBeGreaterThan(0);
  expect(hidden['stats'].frame).toBeGreaterThan(graceFrom + 100);
  await firefox.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { get: () => 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, undefined);
  await waitFor('Ada told Grace is back', async () => (await eventTexts(ada as unknown as AnyPage)).includes("hidden: player 3 (Grace)'s tab is shown again"), 120_000, 100);

  // The bot stops at frame 900 and leaves: an event on every page. Rollbacks were events too.
  expect(await bot.exited, bot.stderr()).toBe(0);
  for (const [name, p] of pages) await waitFor(`${name} told Linus left`, async () => (await eventTexts(p)).some((t) => /^leave: player 4 \(Linus\) left: its seat stands still from frame \d+$/.test(t)), 120_000, 100);
  const rolled = await Promise.all(pages.map(async ([, p]) => (await eventTexts(p)).filter((t) => t.startsWith('rollback: rolled back'))));
  expect(rolled.flat().length, 'some rollback told').toBeGreaterThan(0);
  for (const [name, p] of pages) expect((await stats(p))!['desyncs'], name).toBe(0);
  expect(beaErrors).toEqual([]);
});

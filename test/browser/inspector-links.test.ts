/**
 * The inspector's references in Chromium and Firefox, with real clicks: the bodies a selected agent's plain
 * line names ("Sees agent 28, … and 12 more") are links that select the body they name, "N more" lists them
 * all, and the selection's path trail follows it when asked and goes when hidden. And on the Llama demo track
 * a body that walks off an edge is drawn falling, which the legend then explains.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { waitFor } from '../batch/helpers.js';
import { openSandbox, openSandboxInFirefox, type FirefoxHarness, type Harness, startBothBrowsers } from './harness.js';
import { FALLING_COLOUR } from '../../src/render/scene/palette.js';

interface AnyPage {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  click(selector: string): Promise<void>;
}

let h: Harness;
let ff: FirefoxHarness;

beforeAll(async () => {
  ({ h, ff } = await startBothBrowsers());
});

afterAll(async () => {
  await ff?.close();
  await h?.close();
});

const state = (p: AnyPage) => p.evaluate(() => window.retrosim.state() as Record<string, any>, undefined);
const refs = (p: AnyPage) => p.evaluate(() => Array.from(document.querySelectorAll<HTMLButtonElement>('#inspector .section.entity p.plain button.ref')).map((b) => ({ text: b.textContent, entity: b.dataset['entity'] ?? null, more: b.dataset['more'] ?? null })), undefined);

async function links(name: string, open: (q: Record<string, string>) => Promise<AnyPage>): Promise<void> {
  const p = await open({ world: 'rugrats-demo', agents: '120' });
  // an agent that sees more bodies than the line names
  const chosen = await waitFor(`${name}: an agent that sees more than 6`, () =>
    p.evaluate(() => {
      for (let id = 2; id < 122; id++) {
        window.retrosim.select(id);
        window.retrosim.render();
        const s = window.retrosim.state() as { sees: { sees: number[] } | null };
        if (s.sees && s.sees.sees.length > 7) return id;
      }
      return null;
    }, undefined), 120_000, 500);
  // paused, the line holds still for the clicks (a live line is rebuilt as the agents move; the links act on the
  // press, so a person's click lands, but a test driver waits for an element that holds still)
  await p.evaluate(() => window.retrosim.pause(), undefined);
  const r = await refs(p);
  const named = r.filter((x) => x.entity !== null);
  const more = r.find((x) => x.more !== null);
  expect(named.length, name).toBeGreaterThanOrEqual(6);
  expect(more, name).toBeDefined();
  expect(more!.text).toBe(`${more!.more} more`);
  // "N more" lists them all
  await p.click('#inspector button.ref[data-more]');
  await waitFor(`${name}: every body listed`, async () => (await refs(p)).every((x) => x.more === null), 30_000, 50);
  const all = (await refs(p)).filter((x) => x.entity !== null && x.text!.startsWith('agent'));
  expect(all.length, name).toBeGreaterThan(6);
  // a link selects the body it names
  const target = Number(all[3]!.entity);
  expect(target).not.toBe(chosen);
  await p.click(`#inspector button.ref[data-entity="${target}"]`);
  await waitFor(`${name}: agent ${target} selected`, async () => (await state(p))['selection']?.id === target, 30_000, 50);
  expect((await p.evaluate(() => document.querySelector('#inspector .section.entity h2')!.textContent, undefined))).toBe(`entity ${target}`);

  // its path trail, shown and hidden with the inspector's button
  await p.evaluate(() => window.retrosim.resume(), undefined);
  expect(await p.evaluate(() => document.querySelector('#inspector button.trail')!.textContent, undefined)).toBe('Show path trail');
  await p.click('#inspector button.trail');
  const on = await waitFor(`${name}: a trail of 30 points`, async () => {
    const t = (await state(p))['trail'];
    return t.on && t.points >= 30 ? t : null;
  }, 120_000, 100);
  expect(on.entity).toBe(target);
  // the trail ends where the agent is
  const at = await p.evaluate((id) => window.retrosim.entityScreen(id), target);
  expect(at).not.toBeNull();
  expect(on.first).not.toEqual(on.last);
  expect(await p.evaluate(() => document.querySelector('#inspector button.trail')!.getAttribute('aria-pressed'), undefined)).toBe('true');
  await p.click('#inspector button.trail');
  await waitFor(`${name}: the trail hidden`, async () => {
    const t = (await state(p))['trail'];
    return !t.on && t.points === 0;
  }, 30_000, 50);
}

async function falling(name: string, open: (q: Record<string, string>) => Promise<AnyPage>): Promise<void> {
  const p = await open({ world: 'llama-demo', agents: '30' });
  const label = await waitFor(`${name}: a falling body drawn and explained`, async () => {
    const l = (await state(p))['legend'] as { label: string; colour: number; symbol: string }[];
    return l.find((e) => e.label.startsWith('a body falling')) ?? null;
  }, 300_000, 200);
  expect(label).toMatchObject({ label: "a body falling: it walked off a floor's edge (it respawns at the start)", symbol: 'ring', colour: FALLING_COLOUR });
}

test('Chromium: inspector links select, "N more" lists all, the path trail; a falling body is drawn and explained', async () => {
  const open = async (q: Record<string, string>) => (await openSandbox(h, q)) as unknown as AnyPage;
  await links('Chromium', open);
  await falling('Chromium', open);
});

test('Firefox: inspector links select, "N more" lists all, the path trail; a falling body is drawn and explained', async () => {
  const open = async (q: Record<string, string>) => (await openSandboxInFirefox(ff, h.url, q)) as unknown as AnyPage;
  await links('Firefox', open);
  await falling('Firefox', open);
});

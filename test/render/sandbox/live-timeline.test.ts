/**
 * The live run is a timeline, in Node on real sessions: the page's session records from frame 0 without being
 * asked; seeking back lands on the recorded hash, playing on from there follows the recorded keys and keys held
 * there cut the record; the replay saved is the run from frame 0 to its last frame and verifies; a replay left
 * for live keeps its frames; and a steered moment's link carries its keys, so the page opening it reaches the
 * same frame and hash (too many keys: the link says so and goes without them).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readReplay } from '../../../src/replay/format.js';
import { verifyReplay } from '../../../src/replay/verify.js';
import { SANDBOX_KEYFRAME_INTERVAL, SandboxSession } from '../../../src/render/sandbox/session.js';
import { LIVE_RECORD_BUDGET_BYTES, LIVE_RECORD_MIN_FRAMES } from '../../../src/replay/live-record.js';
import { fastForward, momentOutcome } from '../../../src/render/sandbox/link-moment.js';
import { LinkState, type ViewSnapshot } from '../../../src/render/sandbox/link-state.js';
import { linkInputsNote } from '../../../src/render/sandbox/replay-controls.js';
import { decodeInputs, encodeInputs, InputRuns, MAX_LINK_INPUT_CHARS } from '../../../src/render/scene/link-inputs.js';
import { formatViewLink, linkBounds, parseViewLink } from '../../../src/render/scene/view-link.js';
import { liveSpan } from '../../../src/render/scene/timeline.js';
import { simulationFromSettings } from '../../../src/scenarios/builtin.js';
import { BUTTON_MASK, Buttons } from '../../../src/systems/input.js';
import { opener } from '../helpers.js';

const keys = (f: number): number => [Buttons.Up, Buttons.Up | Buttons.Left, 0, Buttons.Down][Math.floor(f / 23) % 4]!;
const pacing = { now: () => 0, pause: () => Promise.resolve(), progress: () => undefined, stopped: () => false };
const rules = { worlds: ['rugrats-demo'], bounds: linkBounds() };
const snapshot: ViewSnapshot = { world: 'rugrats-demo', agents: 3, camera: null, selectedEntity: null, replay: null, speed: 1, heat: false, rays: 'few', overlay: true, sight: true, legend: true, muted: false };

describe('the live run is a timeline', () => {
  test('recorded from frame 0 unasked: seek back, play on with the recorded keys, keys there cut it; saved, it verifies', async () => {
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    expect(s.recording).toBe(true);
    const hashes = [s.hash];
    for (let f = 0; f < 400; f++) hashes.push(s.stepLive(keys(f)).hash);
    expect(s.timeline).toEqual({ start: 0, end: 400, keyframes: [0, 300] });
    // Back to frame 120: the recorded state.
    expect(s.seek(120)).toEqual({ frame: 120, hash: hashes[120], matches: true });
    // Playing on with no key held follows the recorded keys.
    for (let f = 120; f < 160; f++) expect(s.stepLive(0)).toEqual({ frame: f + 1, hash: hashes[f + 1], matches: true });
    expect(s.timeline!.end).toBe(400);
    // Step back, as a replay steps back.
    expect(s.seek(159).hash).toBe(hashes[159]);
    // A key held here cuts the record: the run goes on differently from frame 159.
    const other = s.stepLive(Buttons.Jump);
    expect(other.frame).toBe(160);
    expect(s.timeline!.end).toBe(160);
    for (let f = 0; f < 30; f++) s.stepLive(0);
    const rp = readReplay(s.finishRecording(), BUTTON_MASK);
    expect(rp.frames.count).toBe(190);
    expect(rp.frames.inputs[159]).toBe(Buttons.Jump);
    expect(rp.frames.inputs[158]).toBe(keys(158));
    expect(verifyReplay(rp, simulationFromSettings(s.opened.world, rp.header.settings)).ok).toBe(true);
    // Saving does not stop the record.
    expect(s.stepLive(0).frame).toBe(191);
    expect(s.timeline!.end).toBe(191);
  });

  test('a replay left for live keeps its frames: the timeline and the file go on from frame 0', async () => {
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    for (let f = 0; f < 350; f++) s.stepLive(keys(f));
    const first = s.finishRecording();
    await s.loadReplay(first);
    s.seek(320);
    s.goLive();
    expect(s.timeline).toEqual({ start: 0, end: 320, keyframes: [0, 300] });
    for (let f = 0; f < 20; f++) s.stepLive(Buttons.Right);
    const rp = readReplay(s.finishRecording(), BUTTON_MASK);
    expect(rp.frames.count).toBe(340);
    expect(Array.from(rp.frames.inputs.subarray(0, 320))).toEqual(Array.from(readReplay(first).frames.inputs.subarray(0, 320)));
    expect(verifyReplay(rp, simulationFromSettings(s.opened.world, rp.header.settings)).ok).toBe(true);
  });

  test("a steered moment's link carries its keys: the page opening it reaches the same frame and hash", async () => {
    const a = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    for (let f = 0; f < 250; f++) a.stepLive(keys(f));
    a.seek(200); // the moment shown, scrubbed back
    const link = formatViewLink(new LinkState({ params: {} }).linkOf({ ...snapshot, live: { frame: a.frame, hash: a.hash, steered: a.steered, inputs: a.linkInputs() } }));
    expect(link).toMatch(/&keys=1(&[a-z]+=[a-z]+)*#in=[A-Za-z0-9_-]+$/);
    const [query, fragment] = link.split('#');
    const parsed = parseViewLink(query!, rules, `#${fragment}`);
    expect(parsed.errors).toEqual([]);
    const m = new LinkState(parsed.link).takeMoment()!;
    expect(m.inputs!.length).toBe(200);
    const b = await SandboxSession.create(opener('rugrats-demo'), { agents: 3 });
    expect(await fastForward(b, m.frame, pacing, m.inputs)).toBe(200);
    expect(b.hash).toBe(a.hash);
    const o = momentOutcome(m, b.frame, b.hash);
    expect(o).toMatchObject({ matches: true, isError: false });
    expect(o.note).toContain('the keys held in that run came with the link');
    // The page that opened it carries the same keys in its own link.
    expect(b.linkInputs()).toBe(a.linkInputs());
  });

  test('the runs kept between links encode as the whole list does, through any appends and cuts (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.record({ push: fc.integer({ min: 0, max: 3 }), times: fc.integer({ min: 1, max: 40 }) }), fc.record({ cut: fc.nat(200) })), { maxLength: 30 }), (ops) => {
        const runs = new InputRuns();
        const list: number[] = [];
        for (const op of ops) {
          if ('push' in op) for (let k = 0; k < op.times; k++) (runs.push(op.push), list.push(op.push));
          else if (op.cut < list.length) (runs.truncate(op.cut), (list.length = op.cut));
          expect(runs.frames).toBe(list.length);
          expect(runs.encode()).toBe(encodeInputs(list));
          expect(runs.held).toBe(list.some((b) => b !== 0));
        }
      }),
    );
  });

  test("a session's link keys follow seeks back, cuts and new frames: always the record's keys up to the frame shown", async () => {
    const s = await SandboxSession.create(opener('rugrats-demo'), { agents: 2 });
    const whole = (to: number) => {
      const bytes = s.finishRecording();
      const rp = readReplay(bytes);
      return encodeInputs(Array.from({ length: to }, (_, f) => rp.frames.inputs[f]!));
    };
    for (let f = 0; f < 200; f++) s.stepLive(keys(f));
    expect(s.linkInputs()).toBe(whole(200));
    s.seek(90);
    expect(s.linkInputs()).toBe(whole(90));
    for (let f = 0; f < 30; f++) s.stepLive(0); // the recorded keys
    expect(s.linkInputs()).toBe(whole(120));
    for (let f = 0; f < 50; f++) s.stepLive(Buttons.Right); // a cut at 120
    expect(s.linkInputs()).toBe(whole(170));
    expect(s.linkInputs(100)).toBe(whole(100));
    expect(s.linkInputs()).toBe(whole(170));
  });

  test('ten minutes of the default field fit in the record\'s budget with the most agents the page holds', async () => {
    const most = linkBounds().agents.max;
    const s = await SandboxSession.create(opener('piney-default'), { agents: most });
    expect(s.sim.agentsPlaced).toBe(most);
    const r = s.liveRecord!;
    // one block now: the keyframe's copy and its 300 frames' records (their arrays are made whole at once)
    expect(r.keyframes()).toEqual([0]);
    const blocks = LIVE_RECORD_MIN_FRAMES / SANDBOX_KEYFRAME_INTERVAL + 1;
    expect(r.bytes * blocks).toBeLessThanOrEqual(LIVE_RECORD_BUDGET_BYTES);
  });

  test('too many keys for a link: the link goes without them and the page says so, offering the replay file', () => {
    const many = new Uint32Array(40_000).map((_, f) => (f * 7919) % 13 & BUTTON_MASK);
    const text = encodeInputs(many);
    expect(text.length).toBeGreaterThan(MAX_LINK_INPUT_CHARS);
    const l = new LinkState({ params: {} }).linkOf({ ...snapshot, live: { frame: 40_000, hash: '0x0000000000000001', steered: true, inputs: text } });
    expect(l.inputs).toBeUndefined();
    expect(l.keys).toBe(true);
    expect(linkInputsNote(text)).toContain('too many for a link');
    expect(linkInputsNote(text)).toContain('Save the replay');
    expect(linkInputsNote(encodeInputs([1, 1, 2]))).toBe('');
    expect(linkInputsNote('')).toBe('');
  });
});

describe("a live run's bar", () => {
  test('spans a round length past the last frame, the last frame at 75% of it or more, growing with the run', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e8 }), fc.integer({ min: 0, max: 1e6 }), (n, more) => {
        const s = liveSpan(n);
        expect(s).toBeGreaterThan(n);
        if (n >= 100) expect(n / s).toBeGreaterThanOrEqual(0.75);
        const p = 10 ** Math.floor(Math.log10(s));
        expect([1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8]).toContain(s / p);
        expect(liveSpan(n + more)).toBeGreaterThanOrEqual(s);
      }),
    );
    expect([0, 99, 100, 124, 125, 899, 900, 36_000].map(liveSpan)).toEqual([100, 100, 125, 125, 150, 1000, 1000, 40_000]);
  });
});

describe('link inputs', () => {
  test('decode(encode(x)) is x for any buttons', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: BUTTON_MASK })), { maxLength: 400 }), fc.nat(40), (runs, rep) => {
        const inputs = runs.flatMap((v, i) => Array<number>(1 + ((i * rep) % 17)).fill(v));
        const text = encodeInputs(inputs);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(Array.from(decodeInputs(text, inputs.length, BUTTON_MASK))).toEqual(inputs);
      }),
    );
  });

  test('hostile texts are refused, saying why; the link drops them and reports it', () => {
    const ok = encodeInputs([1, 1, 1]);
    expect(() => decodeInputs(ok, 4, BUTTON_MASK)).toThrow(/hold 3 frames, the link's frame is 4/);
    expect(() => decodeInputs(ok, 2, BUTTON_MASK)).toThrow(/more than the link's 2 frames/);
    expect(() => decodeInputs('A*', 1, BUTTON_MASK)).toThrow(/character "\*" at 1/);
    expect(() => decodeInputs(encodeInputs([0x40]), 1, BUTTON_MASK)).toThrow(/bits no button has/);
    expect(() => decodeInputs('AAA', 0, BUTTON_MASK)).toThrow(/a run of no frames at byte 0/);
    expect(() => decodeInputs('gA', 1, BUTTON_MASK)).toThrow(/cut short/);
    expect(() => decodeInputs(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x7f, 1]).toString('base64url'), 1, BUTTON_MASK)).toThrow(/over 32 bits ending at byte 4/);
    expect(() => decodeInputs('A'.repeat(MAX_LINK_INPUT_CHARS + 1), 1, BUTTON_MASK)).toThrow(/more than the 6000 a link carries/);
    const p = parseViewLink('?world=rugrats-demo&frame=4', rules, `#in=${ok}`);
    expect(p.link.inputs).toBeUndefined();
    expect(p.errors[0]).toMatch(/^bad link inputs #in=\.\.\.: the runs hold 3 frames.*opened without keys$/);
    expect(parseViewLink('?world=rugrats-demo', rules, `#in=${ok}`).errors[0]).toMatch(/go with a live frame/);
  });
});

/** The banner's messages: the link's lines stay until dismissed, the last error replaces the one before, a note alone is blue. */
import { describe, expect, test } from 'vitest';
import { BannerMessages } from '../../../src/render/sandbox/banner-state.js';

describe('banner messages', () => {
  test("errors before the note; the link's lines stay while the last action's error is replaced", () => {
    const m = new BannerMessages();
    expect([m.text, m.isInfo, m.error]).toEqual(['', false, '']);
    m.info = 'drop that replay';
    expect([m.text, m.isInfo]).toEqual(['drop that replay', true]);
    m.reportLink('bad link parameter zoom');
    m.setError('cannot open a.col: truncated');
    expect(m.text).toBe('bad link parameter zoom\ncannot open a.col: truncated\ndrop that replay');
    expect(m.isInfo).toBe(false);
    m.setError('cannot open b.col: truncated');
    expect(m.error).toBe('bad link parameter zoom\ncannot open b.col: truncated');
    m.setError('');
    expect(m.error).toBe('bad link parameter zoom');
    m.dismiss();
    expect([m.text, m.error, m.info, m.isInfo]).toEqual(['', '', '', false]);
  });
});

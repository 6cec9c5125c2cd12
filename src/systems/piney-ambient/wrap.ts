/**
 * The field is a torus; positions go into the player's frame and back the way the game's
 * ccTransPosW2P / ccTransPosP2W do it, in EE single precision, about WORLD_MAN's bounds (+0x420..+0x42c).
 */
import { add, sub, div, lt, le, orderKey, ONE, TWO, type F, type V4 } from './ee-vec.js';

/** The wrap's bounds with the values the game derives from them each call (they depend only on bounds). */
export interface WrapBounds {
  minX: F;
  minY: F;
  maxX: F;
  maxY: F;
  /** (min + max) / 2, computed as the game does. */
  halfX: F;
  halfY: F;
  /** min − half, max − half, max − min, min − max. */
  loX: F;
  hiX: F;
  loY: F;
  hiY: F;
  spanX: F;
  spanY: F;
  negSpanX: F;
  negSpanY: F;
  /** Order keys (ee-vec's orderKey) of lo, hi and half, for comparisons on the hot paths. */
  keyLoX: number;
  keyHiX: number;
  keyLoY: number;
  keyHiY: number;
  keyHalfX: number;
  keyHalfY: number;
}

export function wrapBounds(minX: F, minY: F, maxX: F, maxY: F): WrapBounds {
  const halfX = div(add(minX, maxX), TWO);
  const halfY = div(add(minY, maxY), TWO);
  const loX = sub(minX, halfX);
  const hiX = sub(maxX, halfX);
  const loY = sub(minY, halfY);
  const hiY = sub(maxY, halfY);
  return {
    minX,
    minY,
    maxX,
    maxY,
    halfX,
    halfY,
    loX,
    hiX,
    loY,
    hiY,
    spanX: sub(maxX, minX),
    spanY: sub(maxY, minY),
    negSpanX: sub(minX, maxX),
    negSpanY: sub(minY, maxY),
    keyLoX: orderKey(loX),
    keyHiX: orderKey(hiX),
    keyLoY: orderKey(loY),
    keyHiY: orderKey(hiY),
    keyHalfX: orderKey(halfX),
    keyHalfY: orderKey(halfY),
  };
}

/** A field's bounds as GO(1) sets them: 0..48000 both ways. */
export const FIELD_BOUNDS: WrapBounds = wrapBounds(0, 0, 0x473b8000, 0x473b8000);

/** One lane of W2P: d = p − P, then into lo..hi once. */
export function w2pLane(p: F, player: F, lo: F, hi: F, span: F, negSpan: F): F {
  const d = sub(p, player);
  if (lt(d, lo)) return add(d, span);
  if (!le(d, hi)) return add(d, negSpan);
  return d;
}

/** One lane of P2W: r = d + P, brought to the player's side of the map. */
export function p2wLane(d: F, player: F, half: F, lo: F, hi: F, span: F, negSpan: F): F {
  const r = add(d, player);
  if (lt(player, half)) {
    if (!le(d, hi)) return add(r, negSpan);
  } else if (lt(d, lo)) {
    return add(r, span);
  }
  return r;
}

/** ccTransPosW2P: (d.x, d.y, p.z, 1) with d = p − P wrapped into −half..half. */
export function w2p(p: V4, player: V4, b: WrapBounds = FIELD_BOUNDS): V4 {
  return [
    w2pLane(p[0], player[0], b.loX, b.hiX, b.spanX, b.negSpanX),
    w2pLane(p[1], player[1], b.loY, b.hiY, b.spanY, b.negSpanY),
    p[2],
    ONE,
  ];
}

/** ccTransPosP2W: (r.x, r.y, d.z, 1) with r = d + P on the player's side. */
export function p2w(d: V4, player: V4, b: WrapBounds = FIELD_BOUNDS): V4 {
  return [
    p2wLane(d[0], player[0], b.halfX, b.loX, b.hiX, b.spanX, b.negSpanX),
    p2wLane(d[1], player[1], b.halfY, b.loY, b.hiY, b.spanY, b.negSpanY),
    d[2],
    ONE,
  ];
}

/** P2W(W2P(p)): a world point brought to the copy nearest the player. */
export function nearest(p: V4, player: V4, b: WrapBounds = FIELD_BOUNDS): V4 {
  return p2w(w2p(p, player, b), player, b);
}

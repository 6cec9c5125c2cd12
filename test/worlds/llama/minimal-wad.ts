import { BinaryWriter } from '../../../src/binary/writer.js';

/**
 * The reference sheet's minimal synthetic level (§10), written byte by byte here (independently of the
 * project's writer) as a whole WAD: one 1×1 map, one flat quad floor at y = 0.25, convention A (n·p = d,
 * normals /127). The fixed block is game space (z = +row), as the seed and issue say; the reference's
 * example gives z = −2048 there, which would be export space.
 */
function tag(w: BinaryWriter, name: string): void {
  for (let i = 3; i >= 0; i--) w.u8(name.charCodeAt(i));
}

function plane(w: BinaryWriter, nx: number, ny: number, nz: number, d: number): void {
  w.i8(nx).i8(ny).i8(nz).u8(0).i16(d);
}

/**
 * With `wall`, the reference's wall extension: a wall polygon with n0 = (127, 0, 0) at local x = 0.4
 * (world x ≈ 0.9), spanning the cell in z and y 0..1.
 */
export function minimalWad(rotY = 0, edgeD = -2048, surfaceD = 1024, wall = false): Uint8Array {
  const trak = new BinaryWriter();
  trak.i32(1);
  for (let k = 0; k < 27; k++) trak.f32(0);
  trak.u16(4).u16(0).u32(0).u32(0).u16(1).u16(0).u16(wall ? 1 : 0).u16(0).u32(0);
  for (const [x, z] of [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]] as const) trak.f32(x).f32(0.25).f32(z).f32(0).f32(1).f32(0);
  trak.u8(0x01).u8(0);
  plane(trak, 0, 127, 0, surfaceD);
  plane(trak, -127, 0, 0, edgeD);
  plane(trak, 127, 0, 0, edgeD);
  plane(trak, 0, 0, -127, edgeD);
  plane(trak, 0, 0, 127, edgeD);
  if (wall) {
    trak.u8(0x01).u8(7);
    plane(trak, 127, 0, 0, 1638);
    plane(trak, 0, 0, 127, -2048);
    plane(trak, 0, 0, -127, -2048);
    plane(trak, 0, 127, 0, 0);
    plane(trak, 0, -127, 0, -4096);
  }
  const map = new BinaryWriter();
  map.u32(1).u32(1).u32(1);
  map.f32(0.5).f32(0).f32(-0.5).i32(rotY).i32(0).i32(0);
  map.i32(0).i32(0).i32(0); // params, doors, waypoints
  map.zeros(256);
  map.u32(0);
  map.i32(0).i32(rotY).i32(0).i32(2048).i32(0).i32(2048);
  map.u32(0);
  for (let v = 0; v < 4; v++) map.u32(0x01808080);
  map.i32(0); // strings
  map.i32(0).i32(0); // strats, max strats
  map.i16(0); // level flag
  const t = trak.finish(), m = map.finish();
  const w = new BinaryWriter();
  w.u32(0);
  tag(w, 'INFO'); w.u32(4).u32(1);
  tag(w, 'VERS'); w.u32(4).u32(1);
  tag(w, 'WFPC'); w.u32(4).u32(0);
  tag(w, 'TRAK'); w.u32(t.length).bytes(t);
  tag(w, 'MAP '); w.u32(m.length).bytes(m);
  tag(w, 'END '); w.u32(0);
  w.setU32At(0, w.length - 4);
  return w.finish();
}


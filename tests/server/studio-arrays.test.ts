// The studio's store of spare working arrays (server/studio/arrays.ts): what is lent comes back
// zeroed, nothing outlives its lending, and when the store is full the arrays kept longest make
// room for the newest (a frame asked for every picture is not shut out by odd sizes kept before).
import { describe, expect, it } from 'vitest';
import { borrow, giveBack, lending, recycle, reuse } from '../../server/studio/arrays';

const MB = 1024 * 1024;

describe('the studio arrays', () => {
  it('outside a lending, borrow makes a new array every time', () => {
    const a = borrow(Float32Array, 16);
    a[0] = 5;
    const b = borrow(Float32Array, 16);
    expect(b).not.toBe(a);
    expect(a[0]).toBe(5);
  });

  it('takes back what a lending borrowed and lends it again, zeroed', () => {
    let first: Int32Array | undefined;
    lending(() => {
      first = borrow(Int32Array, 1000);
      first.fill(7);
    });
    const again = lending(() => {
      const array = borrow(Int32Array, 1000);
      return { same: array === first, sum: array.reduce((s, v) => s + v, 0) };
    });
    expect(again).toEqual({ same: true, sum: 0 });
  });

  it('takes back what a lending borrowed even when the work throws', () => {
    let lost: Uint8Array | undefined;
    expect(() =>
      lending(() => {
        lost = borrow(Uint8Array, 333);
        throw new Error('no shoe');
      }),
    ).toThrow('no shoe');
    expect(lending(() => borrow(Uint8Array, 333))).toBe(lost);
  });

  it('lends an array given back early to the next borrow of the same work', () => {
    lending(() => {
      const scratch = borrow(Uint8Array, 4096);
      scratch[10] = 1;
      giveBack(scratch);
      const next = borrow(Uint8Array, 4096);
      expect(next).toBe(scratch);
      expect(next[10]).toBe(0);
    });
  });

  it('hands a kept array over as it is when the caller writes all of it', () => {
    const frame = new Uint8Array(3 * 1024);
    frame.fill(200);
    recycle(frame);
    const dirty = reuse(Uint8Array, frame.length, { blank: false });
    expect(dirty).toBe(frame);
    expect(dirty[0]).toBe(200);
    // Handed over: it is not kept twice.
    expect(reuse(Uint8Array, frame.length)).not.toBe(frame);
  });

  it('makes room for the newest array by letting the longest kept go', () => {
    const old = new Uint8Array(40 * MB);
    const frame = new Uint8Array(30 * MB);
    recycle(old);
    recycle(frame);
    // 70 MB is over the bound: the old one went, the frame was kept.
    // (Compared as identities: a failure must not print 70 MB of numbers.)
    expect(reuse(Uint8Array, 30 * MB, { blank: false }) === frame).toBe(true);
    expect(reuse(Uint8Array, 40 * MB, { blank: false }) === old).toBe(false);
  });

  it('never keeps an array larger than the whole store', () => {
    const huge = new Uint8Array(65 * MB);
    recycle(huge);
    expect(reuse(Uint8Array, huge.length, { blank: false }) === huge).toBe(false);
  });
});

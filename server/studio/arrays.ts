// Working arrays lent for one synchronous piece of work and taken back when it ends. A cut-out
// works through some thirty arrays the size of its working copy (a third of a megabyte to a
// megabyte and a quarter each); a fresh one costs its pages' first touch, about a millisecond on
// a virtual machine, where zeroing one already touched costs a fiftieth of that. Outside
// `lending`, `borrow` simply makes a new array, so code that borrows works the same when nobody
// lends (and nothing it returns is ever taken back under its feet). A buffer that outlives a
// synchronous piece of work (a picture's frame, until it is encoded) is handed over with `reuse`
// and given back with `recycle` once nothing reads it.

type Numbers = Uint8Array | Int32Array | Float32Array;

/** Arrays kept for reuse between pieces of work, at most this many bytes in all. */
const SPARE_BYTES = 64 * 1024 * 1024;

/** The arrays kept, in the order they were kept: when room is needed, the longest kept go first. */
const spare: Numbers[] = [];
let spareBytes = 0;
/** The arrays lent to the piece of work under way, or null when none is. */
let lent: Numbers[] | null = null;

type Make<T> = new (length: number) => T;

/**
 * An array of `length` numbers, kept from earlier work when one is (the last kept of its kind),
 * else new; the caller's to keep. Zeroed, unless `blank` is false: then its numbers are left over
 * from earlier work and the caller writes every one of them.
 */
export function reuse<T extends Numbers>(make: Make<T>, length: number, { blank = true } = {}): T {
  const at = spare.findLastIndex((array) => array.length === length && array.constructor === make);
  if (at < 0) return new make(length);
  const [kept] = spare.splice(at, 1) as [T];
  spareBytes -= kept.byteLength;
  return blank ? (kept.fill(0) as T) : kept;
}

/** A zeroed array of `length` numbers: lent when `lending` is under way, else new. */
export function borrow<T extends Numbers>(make: Make<T>, length: number): T {
  if (!lent) return new make(length);
  const array = reuse(make, length);
  lent.push(array);
  return array;
}

/** Takes back, before the lending ends, an array borrowed for a step of it that is done with it. */
export function giveBack(array: Numbers): void {
  const at = lent ? lent.indexOf(array) : -1;
  if (at < 0) return;
  lent!.splice(at, 1);
  recycle(array);
}

/**
 * Keeps an array nothing reads any more for later work; it must not be used after this. Within
 * the bound, the arrays kept longest make room for it (one of a size no later work asks for is
 * not kept for ever at the expense of a frame that is asked for every picture).
 */
export function recycle(array: Numbers): void {
  if (array.byteLength > SPARE_BYTES || spare.includes(array)) return;
  while (spareBytes + array.byteLength > SPARE_BYTES) spareBytes -= spare.shift()!.byteLength;
  spare.push(array);
  spareBytes += array.byteLength;
}

/**
 * Runs `work` (synchronous) with `borrow` lending, and takes every array it borrowed back when it
 * returns or throws: none of them may outlive it, so what `work` returns is made with `new`.
 */
export function lending<T>(work: () => T): T {
  const outer = lent;
  lent = [];
  try {
    return work();
  } finally {
    const returned = lent;
    lent = outer;
    for (const array of returned) recycle(array);
  }
}

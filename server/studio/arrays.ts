// Working arrays lent for one synchronous piece of work and taken back when it ends. A cut-out
// works through some thirty arrays the size of its working copy (a third of a megabyte to a
// megabyte and a quarter each); a fresh one costs its pages' first touch, about a millisecond on
// a virtual machine, where zeroing one already touched costs a fiftieth of that. Outside
// `lending`, `borrow` simply makes a new array, so code that borrows works the same when nobody
// lends (and nothing it returns is ever taken back under its feet).

type Numbers = Uint8Array | Int32Array | Float32Array;

/** Arrays kept for reuse between pieces of work, at most this many bytes in all. */
const SPARE_BYTES = 48 * 1024 * 1024;

const spare = new Map<string, Numbers[]>();
let spareBytes = 0;
/** The arrays lent to the piece of work under way, or null when none is. */
let lent: Numbers[] | null = null;

const keyOf = (array: Numbers) => `${array.constructor.name}:${array.length}`;

/** A zeroed array of `length` numbers: lent when `lending` is under way, else new. */
export function borrow<T extends Numbers>(make: { new (length: number): T; name: string }, length: number): T {
  if (!lent) return new make(length);
  const kept = spare.get(`${make.name}:${length}`)?.pop() as T | undefined;
  let array: T;
  if (kept) {
    spareBytes -= kept.byteLength;
    array = kept.fill(0) as T;
  } else {
    array = new make(length);
  }
  lent.push(array);
  return array;
}

/** Takes back, before the lending ends, an array borrowed for a step of it that is done with it. */
export function giveBack(array: Numbers): void {
  const at = lent ? lent.indexOf(array) : -1;
  if (at < 0) return;
  lent!.splice(at, 1);
  keep(array);
}

function keep(array: Numbers) {
  if (spareBytes + array.byteLength > SPARE_BYTES) return;
  const key = keyOf(array);
  const list = spare.get(key) ?? [];
  list.push(array);
  spare.set(key, list);
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
    for (const array of returned) keep(array);
  }
}

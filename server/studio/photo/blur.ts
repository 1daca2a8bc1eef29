// Gaussian blur of a one-channel float field, as three box blurs each way (running sums), so its
// cost does not grow with the radius: soft shadows and penumbras are wide.
import { borrow } from '../arrays';

/** Widths of three boxes whose succession approximates a Gaussian of `sigma` (Kovesi). */
function boxes(sigma: number): [number, number, number] {
  const ideal = Math.sqrt((12 * sigma * sigma) / 3 + 1);
  let lower = Math.floor(ideal);
  if (lower % 2 === 0) lower -= 1;
  const upper = lower + 2;
  const m = Math.round((12 * sigma * sigma - 3 * lower * lower - 4 * 3 * lower - 3 * 3) / (-4 * lower - 4));
  return [0, 1, 2].map((i) => ((i < m ? lower : upper) - 1) / 2) as [number, number, number];
}

/** One box pass of radius `r` along lines of `length` values `step` apart; edges held. */
function boxPass(input: Float32Array, output: Float32Array, lines: number, length: number, lineStride: number, step: number, r: number) {
  const scale = 1 / (2 * r + 1);
  for (let line = 0; line < lines; line += 1) {
    const base = line * lineStride;
    const first = input[base]!;
    const last = input[base + (length - 1) * step]!;
    // The window [i − r, i + r] at i = 0, less its last value (added as the loop enters).
    let sum = first * r;
    for (let i = 0; i < r; i += 1) sum += input[base + Math.min(i, length - 1) * step]!;
    for (let i = 0; i < length; i += 1) {
      const enter = i + r;
      sum += enter < length ? input[base + enter * step]! : last;
      output[base + i * step] = sum * scale;
      const leave = i - r;
      sum -= leave >= 0 ? input[base + leave * step]! : first;
    }
  }
}

/** The field blurred by a Gaussian of `sigmaX` across and `sigmaY` down (a new array). */
export function gaussianBlur(field: Float32Array, width: number, height: number, sigmaX: number, sigmaY = sigmaX): Float32Array {
  let a = borrow(Float32Array, field.length);
  a.set(field);
  let b = borrow(Float32Array, field.length);
  if (sigmaX >= 0.5) {
    for (const r of boxes(sigmaX)) {
      if (r < 1) continue;
      boxPass(a, b, height, width, width, 1, r);
      [a, b] = [b, a];
    }
  }
  if (sigmaY >= 0.5) {
    for (const r of boxes(sigmaY)) {
      if (r < 1) continue;
      boxPass(a, b, width, height, 1, width, r);
      [a, b] = [b, a];
    }
  }
  return a;
}

export const add = (a, b) => a + b;
export const sub = (a, b) => a - b;
export const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));

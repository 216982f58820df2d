import { describe, expect, it } from "vitest";
import { clamp } from "../src/calc.js";

describe("clamp", () => {
  it("keeps values inside", () => {
    expect(clamp(5, 0, 10)).toBe(5);
  });
  it("cuts values outside", () => {
    expect([clamp(-1, 0, 10), clamp(11, 0, 10)]).toEqual([0, 10]);
  });
});

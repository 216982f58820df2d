import { describe, expect, it } from "vitest";
import { add, sub } from "../src/calc.js";

describe("calc", () => {
  it("adds", () => {
    expect(add(2, 3)).toBe(5);
  });

  describe("sub (a > b)", () => {
    it("subtracts", () => {
      expect(sub(5, 3)).toBe(2);
    });
    it("subtracts to zero", () => {
      expect(sub(3, 3)).toBe(0);
    });
  });

  it.skip("divides", () => {});
  it.todo("multiplies");
});

it("adds at the top level", () => {
  expect(add(1, 1)).toBe(2);
});

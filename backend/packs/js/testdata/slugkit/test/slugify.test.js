"use strict";
const { describe, it, test } = require("node:test");
const assert = require("node:assert/strict");
const { slugify } = require("..");
const { each } = require("./helpers");

describe("slugify", () => {
  each((title, slug) => {
    it(`slugs ${JSON.stringify(title)}`, () => {
      assert.equal(slugify(title), slug);
    });
  });

  describe("options", () => {
    it("uses a custom separator", () => {
      assert.equal(slugify("a b c", { separator: "_" }), "a_b_c");
    });

    it("keeps case when asked", () => {
      assert.equal(slugify("Hello World", { lower: false }), "Hello-World");
    });
  });
});

test("numbers survive", () => {
  assert.equal(slugify("Top 10 of 2024"), "top-10-of-2024");
});

test("unicode letters outside Latin are dropped", { todo: "transliteration" }, () => {
  assert.equal(slugify("Привет"), "privet");
});

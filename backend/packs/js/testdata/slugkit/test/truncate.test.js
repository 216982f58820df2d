"use strict";
const { describe, it } = require("node:test");
const assert = require("node:assert/strict");
const { truncate } = require("..");

describe("truncate", () => {
  it("leaves short text alone", () => {
    assert.equal(truncate("short", 10), "short");
  });

  it("cuts at a word boundary", () => {
    const out = truncate("the quick brown fox", 12);
    assert.equal(out, "the quick…");
  });

  it("cuts inside a long word", () => {
    assert.equal(truncate("abcdefghij", 5), "abcd…");
  });

  it("takes a custom ellipsis", { skip: process.platform === "win32" && "newline handling" }, () => {
    assert.equal(truncate("one two three", 9, "..."), "one...");
  });
});

const test = require("node:test");
const assert = require("node:assert");
const { add, sub } = require("../math.js");

test("adds", () => {
  assert.strictEqual(add(2, 3), 5);
});

test("subtracts", () => {
  assert.strictEqual(sub(5, 3), 2);
});

test("skipped on purpose", { skip: "not here" }, () => {});

test.describe("group", () => {
  test.it("nested passes", () => {
    assert.ok(true);
  });
});

"use strict";
// Shared by the tests; not a test file.
const titles = require("./fixtures/titles.json");

function each(fn) {
  for (const [title, slug] of Object.entries(titles)) {
    fn(title, slug);
  }
}

module.exports = { each, titles };

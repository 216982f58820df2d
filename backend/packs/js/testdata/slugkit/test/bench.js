"use strict";
// A benchmark: `npm run bench -- <iterations>`.
const { slugify } = require("..");

const n = Number(process.argv[2]);
if (!Number.isInteger(n) || n <= 0) {
  console.error("usage: node test/bench.js <iterations>");
  process.exit(2);
}
const start = process.hrtime.bigint();
for (let i = 0; i < n; i++) {
  slugify("A Title, With: Punctuation & Accents — é è ê");
}
console.log(`${n} slugs in ${Number(process.hrtime.bigint() - start) / 1e6} ms`);

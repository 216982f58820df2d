"use strict";
// Regenerates fixtures/titles.json from the current slugify: `npm run fixtures`.
const fs = require("node:fs");
const path = require("node:path");
const { slugify } = require("..");
const { titles } = require("./helpers");

const out = {};
for (const title of Object.keys(titles)) {
  out[title] = slugify(title);
}
fs.writeFileSync(path.join(__dirname, "fixtures", "generated.json"), JSON.stringify(out, null, 2) + "\n");
console.log("wrote fixtures/generated.json");

"use strict";

const marks = /[\u0300-\u036f]/g;

function slugify(title, { separator = "-", lower = true } = {}) {
  let s = String(title).normalize("NFKD").replace(marks, "");
  if (lower) {
    s = s.toLowerCase();
  }
  return s
    .replace(/[^A-Za-z0-9]+/g, separator)
    .replace(new RegExp(`^${escape(separator)}+|${escape(separator)}+$`, "g"), "");
}

function truncate(text, max, ellipsis = "…") {
  if (text.length <= max) {
    return text;
  }
  const cut = text.slice(0, Math.max(0, max - ellipsis.length));
  const space = cut.lastIndexOf(" ");
  return (space > 0 ? cut.slice(0, space) : cut) + ellipsis;
}

function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

module.exports = { slugify, truncate };

// words.js: the page's words for its scripts. Scripts hold no sentences:
// the server hands each page the words it needs, in the visitor's
// language, as JSON in data-words attributes (views: scriptWords), and a
// script words a key with t:
//   import { t } from "./words.js";
//   t("moves", { Count: 3 })  // "3 moves", "3 хода", …
// A plural message arrives as its CLDR forms ({"one": …, "other": …}) and
// the browser's Intl.PluralRules picks the form for the page's language.
// Placeholders are written {{.Name}}, as in the catalogue.

let table = null;

function load() {
  if (table) return table;
  table = {};
  for (const el of document.querySelectorAll("[data-words]")) {
    try {
      Object.assign(table, JSON.parse(el.dataset.words || "{}"));
    } catch {
      // a broken attribute leaves its words out; t() then shows the key
    }
  }
  return table;
}

let rules = null;
function pluralRules() {
  if (!rules) rules = new Intl.PluralRules(document.documentElement.lang || "en");
  return rules;
}

/** The words for key (without its catalogue prefix), with named args. */
export function t(key, args = {}) {
  let s = load()[key];
  if (s === undefined) return `[${key}]`;
  if (typeof s === "object") {
    const n = Number(args.Count);
    s = s[pluralRules().select(n)] ?? s.other ?? "";
  }
  return s.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, name) => (name in args ? String(args[name]) : ""));
}

/** Whether the page was handed words for key. */
export function has(key) {
  return key in load();
}

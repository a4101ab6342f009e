// notation.js: moves as the visitor reads them. The server keeps and sends
// moves in English SAN ("Nf3"); the layout hands scripts the visitor's way
// of reading them in <body data-notation>: {"style": "figurine" | "letters",
// "letters": {"K": …, "Q": …, "R": …, "B": …, "N": …}} — the figurines
// (♘f3, the default) or the language's letters (Cf3 in Spanish, Кf3 in
// Russian). The same rule as chess.Letters.Write on the server:
//   import { showSAN } from "./notation.js";
//   showSAN("Nf3")    // "♘f3", "Cf3", …
//   showSAN("e8=Q+")  // "e8=♕+", "e8=D+", …

let table = null;

function letters() {
  if (table) return table;
  table = {};
  try {
    const data = JSON.parse(document.body?.dataset.notation || "{}");
    if (data && typeof data.letters === "object" && data.letters) table = data.letters;
  } catch {
    // a broken attribute leaves the English letters
  }
  return table;
}

/** How the visitor reads moves: "figurine" or "letters". */
export function notationStyle() {
  try {
    return JSON.parse(document.body?.dataset.notation || "{}").style || "figurine";
  } catch {
    return "figurine";
  }
}

/** A SAN move written the visitor's way; anything else comes back as it was. */
export function showSAN(san) {
  if (typeof san !== "string" || san === "") return san;
  const l = letters();
  const piece = (c) => l[c] || c;
  return san
    .replace(/^([KQRBN])(?=.)/, (_, c) => piece(c))
    .replace(/=([QRBN])/, (_, c) => "=" + piece(c));
}

// print.js shows the Print button of a printable page (a worksheet, a
// certificate) and prints when it is pressed. Without it the browser's own
// print command does the same.
for (const button of document.querySelectorAll("[data-action=print]")) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}

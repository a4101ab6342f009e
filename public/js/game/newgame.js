// newgame.js: on the new-game form (/play), shows the computer's settings
// only when the computer is chosen and the friend options only for a
// friend. The form works the same without it.

const form = document.querySelector(".new-game-form");
if (form) {
  const update = () => {
    const mode = form.querySelector('input[name="mode"]:checked')?.value;
    for (const el of form.querySelectorAll(".computer-only")) el.hidden = mode === "friend";
    for (const el of form.querySelectorAll(".friend-only")) el.hidden = mode === "computer";
  };
  form.addEventListener("change", update);
  update();
}

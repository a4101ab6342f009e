// newgame.js: on the new-game form (/play), shows the computer's settings
// only when the computer is chosen (the colour also for a friend on
// another device) and the friend options only for a friend on this
// device. The form works the same without it.

const form = document.querySelector(".new-game-form");
if (form) {
  const update = () => {
    const mode = form.querySelector('input[name="mode"]:checked')?.value;
    for (const el of form.querySelectorAll(".computer-only")) {
      el.hidden = mode !== "computer" && !(mode === "remote" && el.matches(".remote-too"));
    }
    for (const el of form.querySelectorAll(".friend-only")) el.hidden = mode !== "friend";
  };
  form.addEventListener("change", update);
  update();
}

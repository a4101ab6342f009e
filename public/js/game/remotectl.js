// remotectl.js: the buttons of a game played from two devices (G24–G26):
// answering a takeback request, claiming the game of a friend who is
// gone, and copying the invite or watch link. They call net or set the
// state; remote.js draws the result.

import { t } from "../words.js";
import { page } from "./page.js";
import { setState } from "./state.js";
import { act } from "./net.js";
import { addAction } from "./controls.js";

async function copy(button) {
  const field = page.root.querySelector(button.getAttribute("data-copy"));
  if (!field) return;
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    field.select(); // no clipboard here: the link is selected to copy by hand
    return;
  }
  const label = button.textContent;
  button.textContent = t("copied");
  window.setTimeout(() => { button.textContent = label; }, 1500);
}

/** Gives the two-device buttons their actions. */
export function initRemoteControls() {
  addAction("accept-takeback", () => act("/takeback/accept"));
  addAction("decline-takeback", () => act("/takeback/decline"));
  addAction("claim", () => {
    setState({ message: "" });
    act("/claim");
  });
  addAction("copy-invite", copy);
  addAction("copy-watch", copy);
}

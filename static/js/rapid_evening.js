// The rapid evening's tap targets (templates/arbiter/rapid_evening.html):
// each board's buttons (1-0, ½-½, 0-1) fill its result field, which the keyboard fills too
// (1, 0, r, 1f, 0f, 00f); the button of what the field holds is shown pressed. Without this
// script the buttons stay hidden and the fields work as on the results page.
"use strict";

document.querySelectorAll(".tap-results[data-for]").forEach((group) => {
  const field = document.getElementById(group.dataset.for);
  if (!field) {
    return;
  }
  const buttons = Array.from(group.querySelectorAll("button[data-result]"));
  const mark = () => {
    const typed = field.value.trim().toLowerCase().replace(/\s+/g, "");
    buttons.forEach((button) => {
      const pressed = typed !== "" && button.dataset.typed.split(" ").includes(typed);
      button.setAttribute("aria-pressed", String(pressed));
    });
  };
  buttons.forEach((button) => {
    button.addEventListener("click", () => {
      field.value = button.dataset.result;
      mark();
    });
  });
  field.addEventListener("input", mark);
  group.hidden = false;
  mark();
});

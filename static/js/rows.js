// "Add a board" / "Add an absence" on the arbiter's round page (templates/arbiter/round.html):
// a copy of the group's row template, numbered as the formset's next form (Django writes
// "__prefix__" where the number goes), and the formset's TOTAL_FORMS raised by one. Without
// script the buttons stay hidden and the page still saves the rows it shows.
"use strict";

document.querySelectorAll("[data-rows]").forEach((group) => {
  const prefix = group.dataset.rows;
  const total = group.querySelector(`input[name="${prefix}-TOTAL_FORMS"]`);
  const template = group.querySelector("template");
  const rows = group.querySelector("tbody");
  const button = group.querySelector(".add-row-button");
  if (!total || !template || !rows || !button) {
    return;
  }
  button.hidden = false;
  button.addEventListener("click", () => {
    const index = Number(total.value);
    const row = template.content.querySelector("tr").cloneNode(true);
    row.querySelectorAll("[name], [id], label[for]").forEach((element) => {
      for (const attribute of ["name", "id", "for"]) {
        const value = element.getAttribute(attribute);
        if (value) {
          element.setAttribute(attribute, value.replace("__prefix__", String(index)));
        }
      }
    });
    rows.appendChild(row);
    total.value = String(index + 1);
    const first = row.querySelector("input:not([type=hidden]), select");
    if (first) {
      first.focus();
    }
  });
});

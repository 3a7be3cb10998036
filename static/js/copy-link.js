// A link to copy (the profile's calendar link): the whole link is selected when the field is
// tapped, and the "Kopiëren" button (hidden without JavaScript) puts it on the clipboard.
document.querySelectorAll("[data-copy-field]").forEach((field) => {
  field.addEventListener("focus", () => field.select());
  const button = document.querySelector(`[data-copy-button="${field.id}"]`);
  if (!button || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    navigator.clipboard.writeText(field.value).then(() => {
      button.textContent = button.dataset.copied;
    });
  });
});

// The print pages' "Afdrukken" button (a static file: the Content-Security-Policy forbids
// inline script). Without JavaScript the button stays hidden; the browser's own print works.
for (const button of document.querySelectorAll("[data-print]")) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}

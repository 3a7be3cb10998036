// A table of rounds wider than its box opens at its latest round: the box starts scrolled so
// that the latest round is the first column after the ones that stay in view (position, name,
// total), or to its end where everything after it fits (attendance, movement). So do the rounds
// a phone shows after "Punten per ronde tonen", and the chart's table when it is opened. The
// earlier rounds are a scroll away, behind a scrollbar that is always shown.
(function () {
  function toLatest(box) {
    box.scrollLeft = 0;
    var end = box.scrollWidth - box.clientWidth;
    var rounds = box.querySelectorAll("thead .rnd");
    var latest = rounds[rounds.length - 1];
    var kept = box.querySelector("thead .total");
    if (!latest || !kept || latest.offsetWidth === 0) {
      box.scrollLeft = end;
      return;
    }
    var gap = latest.getBoundingClientRect().left - kept.getBoundingClientRect().right;
    box.scrollLeft = Math.min(end, Math.max(0, gap));
  }
  document.querySelectorAll(".latest-round").forEach(function (box) {
    toLatest(box);
    var opener = box.closest("details");
    if (opener) opener.addEventListener("toggle", function () { toLatest(box); });
  });
  var switcher = document.getElementById("show-rounds");
  if (switcher) {
    switcher.addEventListener("change", function () {
      document.querySelectorAll(".standings-scroll").forEach(toLatest);
    });
  }
})();

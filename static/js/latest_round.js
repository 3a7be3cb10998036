// The standings (and the chart's table) open where the eye starts: at the left when the rounds'
// points are hidden (a phone, until "Punten per ronde tonen"), at the latest round when they
// are shown: the box scrolls so that the latest round is the first column after the ones that
// stay in view (sticky: position, name and total; on a wide screen also group to percentage),
// or as far as the table goes. Whatever it scrolls, the first column after the sticky ones
// starts whole: no cut-off number ("3%" for 83 %) slides under the names.
// The sticky columns' offsets are measured, not guessed: each sticky header cell's place at
// the table's left end is written as --stick-N on the table (CSS: site.css).
(function () {
  function sticky(box) {
    return Array.prototype.filter.call(box.querySelectorAll("thead th"), function (th) {
      return getComputedStyle(th).position === "sticky";
    });
  }
  function measure(box) {
    var table = box.querySelector("table");
    if (!table) return;
    box.scrollLeft = 0;
    var cells = box.querySelectorAll("thead tr:first-child > *");
    var origin = table.getBoundingClientRect().left;
    cells.forEach(function (cell, index) {
      table.style.setProperty("--stick-" + (index + 1), (cell.getBoundingClientRect().left - origin) + "px");
    });
  }
  function toLatest(box) {
    measure(box);
    box.scrollLeft = 0;
    var rounds = box.querySelectorAll("thead .rnd");
    var latest = rounds[rounds.length - 1];
    var kept = sticky(box).pop();
    var end = box.scrollWidth - box.clientWidth;
    if (!latest || !kept) { // a table of rankings (the chart's): its latest is at the end
      box.scrollLeft = end;
      return;
    }
    if (latest.offsetWidth === 0) return; // the rounds are hidden: the left end
    var edge = kept.getBoundingClientRect().right;
    var target = Math.min(end, Math.max(0, latest.getBoundingClientRect().left - edge));
    // The column at the sticky edge after scrolling starts whole (scroll back to its start).
    var cells = box.querySelectorAll("thead tr:first-child > *");
    for (var i = 0; i < cells.length; i++) {
      var left = cells[i].getBoundingClientRect().left - edge;
      var right = left + cells[i].getBoundingClientRect().width;
      if (left >= 0 && left < target && right > target) {
        target = left;
        break;
      }
    }
    box.scrollLeft = Math.round(target);
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
  window.addEventListener("resize", function () {
    document.querySelectorAll(".standings-scroll").forEach(toLatest);
  });
})();

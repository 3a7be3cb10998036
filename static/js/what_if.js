// "Wat als": a changed result is computed at once. The form works without this file (the
// button sends it, and the page lands at the answer: the form's action ends in #antwoord);
// with it, a change asks the server for the page of the new choice and puts its live parts
// (the ranking, the places beside the names, the messages) in place, so the visitor keeps
// their place on the page, and the button does the same and then brings the answer into
// view, its heading focused (issue 37: on a phone the answer is below every board). No inline
// script: the site's CSP forbids it.
(function () {
  "use strict";
  var form = document.getElementById("what-if-form");
  var able = window.fetch && window.DOMParser && window.URLSearchParams;
  if (!form || !able || !form.replaceChildren) {
    return; // the button sends the form
  }
  var latest = 0;
  var BUSY_WAIT = 5; // seconds: a longer Retry-After (the minute's limit) shows its page
  var ANSWER = "antwoord"; // the answer's heading: the fragment of the form's action

  function address() {
    var query = new URLSearchParams(new FormData(form)).toString();
    return form.getAttribute("action").split("#")[0] + "?" + query;
  }

  // The answer's heading in view (scrolled to only when it is not: beside the boards on a
  // wide screen it is already) and focused (a screen reader reads on from there).
  function land() {
    var heading = document.getElementById(ANSWER);
    if (heading) {
      var box = heading.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) {
        heading.scrollIntoView({ block: "start" });
      }
      heading.focus({ preventScroll: true });
    }
  }

  function refresh(landing) {
    var asked = ++latest;
    var url = address();
    var answer = document.getElementById("what-if-answer");
    if (answer) {
      answer.classList.add("what-if-answer-busy");
    }
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        var wait = parseInt(response.headers.get("Retry-After"), 10);
        if (response.status === 429 && wait > 0 && wait <= BUSY_WAIT) {
          // Others behind the same address (the club's wifi) are being answered: this
          // question is asked again in a moment, unless a later change replaces it.
          window.setTimeout(function () {
            if (asked === latest) {
              refresh(landing);
            }
          }, wait * 1000);
          return null;
        }
        if (response.status === 429) {
          window.location.assign(url); // the limit's own page says how long to wait
          return null;
        }
        return response.text();
      })
      .then(function (html) {
        if (html === null || asked !== latest) {
          return; // asked again in a moment, or a later change is on its way
        }
        var page = new DOMParser().parseFromString(html, "text/html");
        // The contents change, the elements stay: a screen reader keeps following the
        // answer's live region.
        page.querySelectorAll(".what-if-live[id]").forEach(function (fresh) {
          var old = document.getElementById(fresh.id);
          if (old) {
            old.replaceChildren.apply(
              old,
              Array.prototype.map.call(fresh.childNodes, function (node) {
                return document.importNode(node, true);
              })
            );
          }
        });
        if (answer) {
          answer.classList.remove("what-if-answer-busy");
        }
        window.history.replaceState(null, "", landing ? url + "#" + ANSWER : url);
        if (landing) {
          land();
        }
      })
      .catch(function () {
        // the plain way: load the page of this choice
        window.location.assign(landing ? url + "#" + ANSWER : url);
      });
  }

  form.addEventListener("change", function (event) {
    if (event.target.tagName === "SELECT") {
      refresh(false);
    }
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    refresh(true);
  });
})();

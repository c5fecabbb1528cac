// The requirement matrix in the page: combinable filters (status, state,
// tag, text); assets/sorttable.js sorts its columns. Without JavaScript the
// static filter pages (requirements/filter/…) do the filtering; this
// script hides their links and shows the form instead.
(function () {
  "use strict";
  var table = document.getElementById("matrix");
  var form = document.getElementById("matrix-filters");
  if (!table || !form) return;
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var count = document.getElementById("matrix-count");
  var statics = document.getElementById("static-filters");
  if (statics) statics.hidden = true;
  form.hidden = false;

  var tags = {};
  rows.forEach(function (r) {
    (r.getAttribute("data-tags") || "").split(" ").forEach(function (t) { if (t) tags[t] = true; });
  });
  var tagSelect = form.elements.tag;
  var tagNames = Object.keys(tags).sort();
  tagNames.forEach(function (t) {
    var o = document.createElement("option");
    o.textContent = t;
    tagSelect.appendChild(o);
  });
  if (!tagNames.length) tagSelect.parentNode.hidden = true;

  var is = function (r, name) { return r.getAttribute("data-" + name) === "true"; };
  var states = {
    stale: function (r) { return is(r, "stale"); },
    unimplemented: function (r) { return !is(r, "implemented"); },
    untested: function (r) { return !is(r, "tested"); },
    unverified: function (r) { return !is(r, "verified"); },
    verified: function (r) { return is(r, "verified"); }
  };

  function apply() {
    var status = form.elements.status.value, state = form.elements.state.value;
    var tag = tagSelect.value, q = form.elements.q.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (r) {
      var ok = (!status || r.getAttribute("data-status") === status) &&
        (!state || states[state](r)) &&
        (!tag || (" " + (r.getAttribute("data-tags") || "") + " ").indexOf(" " + tag + " ") >= 0) &&
        (!q || r.textContent.toLowerCase().indexOf(q) >= 0);
      r.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + " of " + rows.length + " shown";
  }
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  apply();
})();

// The requirement matrix in the page: sortable columns and combinable
// filters (status, state, tag, text). Without JavaScript the static filter
// pages (requirements/filter/…) do the filtering; this script hides their
// links and shows the form instead. Sorting is natural (REQ-2 before
// REQ-10) and stable: ties keep the natural id order.
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

  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  var order = function (r) { return parseInt(r.getAttribute("data-order"), 10); };
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
  heads.forEach(function (th, col) {
    var kind = th.getAttribute("data-sort");
    if (!kind) return;
    var b = document.createElement("button");
    b.type = "button";
    b.className = "sort";
    b.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(b);
    b.addEventListener("click", function () {
      var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
      heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
      var sorted = rows.slice().sort(function (x, y) {
        var c = kind === "order" ? order(x) - order(y)
          : collator.compare(x.cells[col].textContent.trim(), y.cells[col].textContent.trim());
        return dir * c || order(x) - order(y);
      });
      sorted.forEach(function (r) { tbody.appendChild(r); });
    });
  });
  apply();
})();

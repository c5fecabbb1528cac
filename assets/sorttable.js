// Sortable tables (the coverage page, the requirement matrix): a click on a
// column heading with data-sort sorts the rows by that column, as text
// (natural order: a2 before a10), as a number (a cell's data-value, else
// its text) or in the rows' first order ("order": the matrix's natural id
// order), and a second click reverses. Ties keep the rows' first order,
// so a sort is stable. Without JavaScript the table stays in its first
// order.
(function () {
  "use strict";
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    var first = new Map(rows.map(function (r, i) { return [r, i]; }));
    var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var value = function (r, col) {
      var c = r.cells[col];
      var v = c.getAttribute("data-value");
      return parseFloat(v !== null ? v : c.textContent) || 0;
    };
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
          var c = kind === "num" ? value(x, col) - value(y, col)
            : kind === "order" ? first.get(x) - first.get(y)
            : collator.compare(x.cells[col].textContent.trim(), y.cells[col].textContent.trim());
          return dir * c || first.get(x) - first.get(y);
        });
        sorted.forEach(function (r) { tbody.appendChild(r); });
      });
    });
  });
})();

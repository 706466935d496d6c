// Filters of the mle-gym run viewer: task, seed, outcome and text. The episode index is
// JSON in a data block (never markup); only textContent, hidden and open are set here.
(function () {
  "use strict";
  var source = document.getElementById("episode-index");
  if (!source) { return; }
  var index = JSON.parse(source.textContent);
  var task = document.getElementById("f-task");
  var seed = document.getElementById("f-seed");
  var text = document.getElementById("f-text");
  var boxes = Array.prototype.slice.call(document.querySelectorAll("input[name=outcome]"));
  var counter = document.getElementById("shown-count");
  var cache = {};

  function articleOf(n) { return document.getElementById("ep-" + n); }
  function rowOf(n) { return document.getElementById("row-" + n); }
  function textOf(n) {
    if (!(n in cache)) {
      var el = articleOf(n);
      cache[n] = el ? el.textContent.toLowerCase() : "";
    }
    return cache[n];
  }

  function apply() {
    var wanted = {};
    boxes.forEach(function (box) { wanted[box.value] = box.checked; });
    var query = text ? text.value.trim().toLowerCase() : "";
    var shown = 0;
    index.forEach(function (ep) {
      var visible = (!task || task.value === "" || ep.task === task.value) &&
        (!seed || seed.value === "" || String(ep.seed) === seed.value) &&
        wanted[ep.outcome] !== false &&
        (query === "" || textOf(ep.n).indexOf(query) !== -1);
      var article = articleOf(ep.n);
      var row = rowOf(ep.n);
      if (article) { article.hidden = !visible; }
      if (row) { row.hidden = !visible; }
      if (visible) { shown += 1; }
    });
    var noun = index.length === 1 ? " episode" : " episodes";
    counter.textContent = shown + " of " + index.length + noun + " shown";
  }

  function setOpen(open) {
    index.forEach(function (ep) {
      var article = articleOf(ep.n);
      if (article && !article.hidden) {
        var body = article.querySelector("details.ep-body");
        if (body) { body.open = open; }
      }
    });
  }

  function openTarget() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    for (var el = target; el; el = el.parentElement) {
      if (el.tagName === "DETAILS") { el.open = true; }
    }
    if (target) { target.scrollIntoView(); }
  }

  [task, seed].forEach(function (el) { if (el) { el.addEventListener("change", apply); } });
  boxes.forEach(function (box) { box.addEventListener("change", apply); });
  if (text) { text.addEventListener("input", apply); }
  var expand = document.getElementById("expand-all");
  var collapse = document.getElementById("collapse-all");
  if (expand) { expand.addEventListener("click", function () { setOpen(true); }); }
  if (collapse) { collapse.addEventListener("click", function () { setOpen(false); }); }
  window.addEventListener("hashchange", openTarget);
  document.documentElement.classList.add("js");
  apply();
  openTarget();
})();

// A chart screenshot pasted (Ctrl+V) or dropped on a trade's page is
// attached to the trade: the script posts the page's own attach form (its
// CSRF token first, then the trade, then the file, as the server reads
// them) and puts the screenshots the server answers in place. Without the
// script, the form's file input does the same.
(function () {
  function current() {
    return {section: document.getElementById("screenshots"), form: document.getElementById("attach")};
  }
  function imageOf(list) {
    for (var i = 0; list && i < list.length; i++) {
      var f = list[i].kind === "file" ? list[i].getAsFile() : list[i];
      if (f && /^image\/(png|jpeg|webp)$/.test(f.type)) return f;
    }
    return null;
  }
  function send(file) {
    var c = current();
    if (!c.form) return;
    var data = new FormData();
    data.append("csrf", c.form.elements.csrf.value);
    data.append("trade_id", c.form.elements.trade_id.value);
    data.append("category", "receipt");
    data.append("file", file, file.name || "screenshot.png");
    c.section.setAttribute("aria-busy", "true");
    fetch(c.form.action, {method: "POST", body: data, credentials: "same-origin", headers: {"X-Fragment": "documents"}})
      .then(function (r) { return r.text().then(function (html) { return {ok: r.ok, html: html}; }); })
      .then(function (res) {
        var c = current();
        if (res.ok) {
          c.section.outerHTML = res.html;
          start();
          return;
        }
        c.section.removeAttribute("aria-busy");
        var old = c.section.querySelector("[role=alert]");
        if (old) old.remove();
        c.section.insertAdjacentHTML("beforeend", res.html);
      });
  }
  function start() {
    var c = current();
    if (!c.form) return;
    document.getElementById("paste-hint").hidden = false;
    c.section.addEventListener("dragover", function (e) { e.preventDefault(); });
    c.section.addEventListener("drop", function (e) {
      var f = imageOf(e.dataTransfer && e.dataTransfer.files);
      if (!f) return;
      e.preventDefault();
      send(f);
    });
  }
  document.addEventListener("paste", function (e) {
    var target = e.target;
    if (target && (target.tagName === "TEXTAREA" || target.tagName === "INPUT") && !imageOf(e.clipboardData && e.clipboardData.items)) return;
    var f = imageOf(e.clipboardData && e.clipboardData.items) || imageOf(e.clipboardData && e.clipboardData.files);
    if (!f) return;
    e.preventDefault();
    send(f);
  });
  start();
})();

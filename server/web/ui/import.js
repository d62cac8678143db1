// Preview without leaving the page, so the chosen file stays chosen for
// the import that follows. Without this script the preview is a page of
// its own, and the file is chosen again to import.
(function () {
  var form = document.getElementById("import");
  var preview = document.getElementById("preview");
  var button = document.getElementById("preview-button");
  if (!button) return; // the page maps a file's columns: no upload form
  button.addEventListener("click", function (ev) {
    if (!form.reportValidity()) return;
    ev.preventDefault();
    var data = new FormData(form);
    preview.textContent = "Reading the file…";
    fetch("/import?preview=1", { method: "POST", body: data, headers: { "X-Fragment": "preview" }, credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) { preview.innerHTML = html; preview.focus(); });
  });
})();

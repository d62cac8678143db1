// A sign-in link (/login#token=…) carries a single-use token in the
// fragment, which never reaches a request line or a log. Drop it from the
// address bar and history first, then ask the server whom it signs in as:
// the page that comes back signs in only when its button is pressed.
(function () {
  var m = /^#token=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (location.hash) history.replaceState(null, "", location.pathname);
  var form = document.getElementById("link");
  if (!m || !form) return;
  document.getElementById("token").value = m[1];
  form.submit();
})();

// The review queue's keys (DESIGN §13): 1-5 set the rating, r ticks or
// unticks Reviewed, n saves and goes to the next trade (the form's own
// "Save and next"), j and k go to the next and previous trade (the page's
// own links). Keys typed into a text field are the field's. Without the
// script, the button and links do the same.
(function () {
  var form = document.getElementById("queue-form");
  if (!form) return;
  document.getElementById("queue-keys").hidden = false;
  var saved = new URLSearchParams(new FormData(form)).toString();
  function changed() { return new URLSearchParams(new FormData(form)).toString() !== saved; }
  function typing(el) {
    if (!el || !el.tagName) return false;
    if (el.isContentEditable || el.tagName === "TEXTAREA") return true;
    return el.tagName === "INPUT" && !/^(checkbox|radio|button|submit|reset|file)$/.test(el.type);
  }
  function go(id) {
    var link = document.getElementById(id);
    if (!link) return;
    // Leaving the trade does not save it: ask before losing a change.
    if (changed() && !window.confirm("Leave this trade without saving its review?")) return;
    window.location.href = link.href;
  }
  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    var rating = form.elements.star_rating;
    switch (e.key) {
      case "1": case "2": case "3": case "4": case "5":
        rating.value = e.key;
        rating.dispatchEvent(new Event("change", {bubbles: true}));
        break;
      case "r":
        form.elements.reviewed.checked = !form.elements.reviewed.checked;
        break;
      case "n":
        form.requestSubmit(document.getElementById("save-next"));
        break;
      case "j":
        go("queue-next");
        break;
      case "k":
        go("queue-prev");
        break;
      default:
        return;
    }
    e.preventDefault();
  });
})();

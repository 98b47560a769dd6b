// The hosted page's only script (allowed by its CSP nonce). It asks the page's own status route
// (`…/status`: `{"status"}` of this session or invoice, nothing else) every few seconds while the
// payable is open, for a bounded time (`data-poll-seconds`: until the charge expires, at most 30
// minutes), backing off when the server does not answer, and flips the page when the status changes:
// the payer sees "paid" without reloading. It also copies the PIX code. Text it writes is set with
// textContent, never parsed as HTML.

export const pollIntervalMilliseconds = 3000
/** However long the charge lives, a page polls at most this long; after that it says to reload. */
export const maxPollSeconds = 30 * 60

export const paymentPageScript = `(function () {
  var root = document.querySelector('[data-status-url]');
  var copyButton = document.querySelector('[data-copy-from]');
  if (copyButton) {
    copyButton.hidden = false;
    copyButton.addEventListener('click', function () {
      var field = document.getElementById(copyButton.getAttribute('data-copy-from'));
      var said = function (text) { copyButton.textContent = text; };
      var fallback = function () {
        field.focus();
        field.select();
        try { said(document.execCommand('copy') ? copyButton.getAttribute('data-copied') : copyButton.getAttribute('data-copy-failed')); }
        catch (error) { said(copyButton.getAttribute('data-copy-failed')); }
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(function () { said(copyButton.getAttribute('data-copied')); }, fallback);
      } else {
        fallback();
      }
    });
  }
  if (!root) return;
  var statusUrl = root.getAttribute('data-status-url');
  var texts = JSON.parse(root.getAttribute('data-state-texts'));
  var deadline = Date.now() + Number(root.getAttribute('data-poll-seconds')) * 1000;
  var interval = ${pollIntervalMilliseconds};
  var failures = 0;
  var status = document.querySelector('[data-testid="status"]');
  var each = function (selector, visible) {
    var found = document.querySelectorAll(selector);
    for (var index = 0; index < found.length; index += 1) found[index].hidden = !visible;
  };
  var show = function (state) {
    status.setAttribute('data-status', state);
    status.textContent = Object.prototype.hasOwnProperty.call(texts, state) ? texts[state] : state;
    each('[data-while-open]', false);
    if (/^[a-z_]+$/.test(state)) each('[data-when-' + state + ']', true);
  };
  var poll = function () {
    if (Date.now() > deadline) {
      each('[data-testid="watching"]', false);
      each('[data-testid="stopped-watching"]', true);
      return;
    }
    fetch(statusUrl, { cache: 'no-store', credentials: 'omit', headers: { Accept: 'application/json' } })
      .then(function (response) { if (!response.ok) throw new Error(String(response.status)); return response.json(); })
      .then(function (body) {
        failures = 0;
        if (body && typeof body.status === 'string' && body.status !== 'open') return show(body.status);
        setTimeout(poll, interval);
      })
      .catch(function () {
        failures += 1;
        setTimeout(poll, Math.min(60000, interval * Math.pow(2, failures)));
      });
  };
  setTimeout(poll, interval);
})();`

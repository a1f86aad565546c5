/**
 * `/public/partnerLogin.html`: the page login URLs point to. Self-contained (inline style and
 * script, allowed by hash in its Content-Security-Policy). It reads `partnerToken` from the URL,
 * removes it from the address bar, uses it once through `POST /public/api/login`, and shows the
 * user, their DPE's classes and their last simulation, or a clear message for a used, expired
 * or unknown link. User data is written with `textContent` only.
 */
import { createHash } from 'node:crypto';

const STYLE = `
:root { font-family: system-ui, sans-serif; color: #1d2433; background: #f5f6f8; }
body { margin: 0; }
main { max-width: 40rem; margin: 2rem auto; padding: 1.5rem 2rem; background: #fff;
  border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
h1 { font-size: 1.3rem; margin: 0 0 1rem; }
h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 0; }
dt { color: #5b6475; }
dd { margin: 0; }
.badge { display: inline-block; min-width: 1.6em; padding: .1em .45em; border-radius: 4px;
  font-weight: 700; text-align: center; color: #fff; background: #777; }
.A { background: #009c6d; } .B { background: #52b153; } .C { background: #78bd76; color: #1d2433; }
.D { background: #f4e70f; color: #1d2433; } .E { background: #f0b50f; color: #1d2433; }
.F { background: #eb8235; } .G { background: #d7221f; }
.error { padding: 1rem; border-radius: 6px; background: #fdecea; color: #8a1c14; }
.muted { color: #5b6475; }
[hidden] { display: none !important; }
`;

const SCRIPT = `
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  function text(id, value) { $(id).textContent = value === null || value === undefined ? '–' : String(value); }
  function badge(id, letter) {
    var el = $(id);
    el.textContent = letter || '–';
    el.className = 'badge ' + (letter || '');
  }
  function fail(title, detail) {
    $('loading').hidden = true;
    $('content').hidden = true;
    $('error').hidden = false;
    text('error-title', title);
    text('error-detail', detail);
    document.title = 'Login failed';
  }
  function num(x) { return x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US').replace(/,/g, '\u202f'); }
  function render(body) {
    $('loading').hidden = true;
    $('content').hidden = false;
    text('user-name', body.user.userName);
    text('customer-name', body.user.customerName);
    text('user-ids', body.user.customerId + ' / ' + body.user.userId);
    var dpe = body.dpe;
    if (dpe) {
      $('dpe').hidden = false;
      text('dpe-id', dpe.dpeId);
      if (dpe.blocked) {
        $('dpe-classes').hidden = true;
        $('dpe-blocked').hidden = false;
        text('dpe-blocked', (dpe.alert && dpe.alert.title ? dpe.alert.title + ': ' : '') + (dpe.alert ? dpe.alert.content : 'this DPE cannot be simulated'));
      } else if (dpe.classes) {
        badge('class-dpe', dpe.classes.dpe);
        badge('class-energy', dpe.classes.energy);
        badge('class-ges', dpe.classes.ges);
        text('dpe-ep', num(dpe.epM2) + ' kWh/m²/yr');
        text('dpe-ges', num(dpe.gesM2) + ' kg CO2e/m²/yr');
        text('dpe-surface', dpe.surface === null ? null : num(dpe.surface) + ' m²');
      }
    }
    var last = body.lastSimulation;
    if (last) {
      $('last').hidden = false;
      text('last-operation', last.operation + (last.scenario ? ' (' + last.scenario + ')' : '') + ' on ' + last.dpeId);
      text('last-at', new Date(last.at).toLocaleString('en-GB'));
      badge('last-class-before', last.classBefore);
      badge('last-class-after', last.classAfter || last.classBefore);
      text('last-conso', num(last.consoBefore) + ' → ' + num(last.consoAfter === null ? last.consoBefore : last.consoAfter) + ' kWh/m²/yr');
      text('last-cost', last.coutTravaux === null ? null : num(last.coutTravaux) + ' €');
      text('last-works', last.works.length ? last.works.map(function (w) { return w.referenceId + ' ' + w.editableKey + ' ' + w.editableValue; }).join(', ') : 'none');
    } else {
      $('no-last').hidden = false;
    }
    document.title = 'Welcome ' + body.user.userName;
  }
  var token = new URLSearchParams(window.location.search).get('partnerToken');
  if (!token) {
    fail('This page needs a login link.', 'The link has no partnerToken: open the link you were given.');
    return;
  }
  // the token is single use: keep it out of the address bar and the browser history
  window.history.replaceState(null, '', window.location.pathname);
  fetch('api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ partnerToken: token }),
    credentials: 'same-origin'
  }).then(function (res) {
    return res.json().catch(function () { return null; }).then(function (body) {
      if (res.ok && body) return render(body);
      var reason = body && body.error ? body.error : 'HTTP ' + res.status;
      reason = reason.charAt(0).toUpperCase() + reason.slice(1);
      if (res.status === 410) fail('This login link can no longer be used.', reason + '. Ask for a new link.');
      else if (res.status === 404) fail('This login link is not valid.', reason + '. Check that you copied the whole link.');
      else fail('Login failed.', reason);
    });
  }, function (err) {
    fail('Cannot reach the service.', String(err && err.message ? err.message : err));
  });
})();
`;

const BODY = `
<main>
  <h1>DPE simulation</h1>
  <p id="loading" class="muted">Signing you in…</p>
  <div id="error" class="error" role="alert" hidden>
    <strong id="error-title"></strong>
    <p id="error-detail"></p>
  </div>
  <div id="content" hidden>
    <h2>Signed in</h2>
    <dl>
      <dt>User</dt><dd id="user-name"></dd>
      <dt>Organisation</dt><dd id="customer-name"></dd>
      <dt>Identifiers</dt><dd id="user-ids" class="muted"></dd>
    </dl>
    <section id="dpe" hidden>
      <h2>DPE <span id="dpe-id"></span></h2>
      <p id="dpe-blocked" class="error" hidden></p>
      <dl id="dpe-classes">
        <dt>DPE class</dt><dd><span id="class-dpe" class="badge"></span></dd>
        <dt>Energy class</dt><dd><span id="class-energy" class="badge"></span> <span id="dpe-ep"></span></dd>
        <dt>Climate (GES) class</dt><dd><span id="class-ges" class="badge"></span> <span id="dpe-ges"></span></dd>
        <dt>Surface</dt><dd id="dpe-surface"></dd>
      </dl>
    </section>
    <section id="last" hidden>
      <h2>Last simulation</h2>
      <dl>
        <dt>Operation</dt><dd id="last-operation"></dd>
        <dt>Date</dt><dd id="last-at"></dd>
        <dt>Class</dt><dd><span id="last-class-before" class="badge"></span> → <span id="last-class-after" class="badge"></span></dd>
        <dt>Consumption</dt><dd id="last-conso"></dd>
        <dt>Works cost</dt><dd id="last-cost"></dd>
        <dt>Works</dt><dd id="last-works"></dd>
      </dl>
    </section>
    <p id="no-last" class="muted" hidden>No simulation yet.</p>
  </div>
</main>`;

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export const LOGIN_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Signing in…</title>
<style>${STYLE}</style>
</head>
<body>${BODY}
<script>${SCRIPT}</script>
</body>
</html>
`;

/** Headers of the page: only its own inline style and script run, nothing is cached. */
export const LOGIN_PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': [
    "default-src 'none'",
    `script-src ${sha256Source(SCRIPT)}`,
    `style-src ${sha256Source(STYLE)}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
};

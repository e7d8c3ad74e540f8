// Keeps what a user made in the page in the browser's own storage
// (IndexedDB), so that a reload, a closed tab or a page that failed loses
// nothing (ui/keep.go decides what and when; this file only stores).
//
// One record per tab, keyed by an id the tab keeps in sessionStorage (a
// reload keeps it, a new tab gets a new one): { at, hash, session, csv,
// triplets }, the session a JSON text (ui/store SessionJSON), hash the
// page's address then (it follows the settings), csv and triplets the
// files' text. A reload (the tab's own record, at the address it was kept
// at) restores it; a plain visit (no fragment) restores the newest of
// all; a link opens as it says. The newest few records are kept, the rest
// deleted.
//
// window.rmlKeep.saved is a promise of the record to restore (null if
// none), read while the app downloads; save(session, csv, triplets)
// stores this tab's (csv or triplets undefined: unchanged since the last
// save) and resolves when stored; forget() deletes the record restored and
// this tab's. Every failure rejects with the browser's reason.
'use strict';
window.rmlKeep = (function () {
  const KEEP = 8;
  let tab = null;
  try {
    tab = sessionStorage.getItem('rml-tab');
    if (!tab) {
      tab = Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 10);
      sessionStorage.setItem('rml-tab', tab);
    }
  } catch (e) { /* no sessionStorage (a sandboxed frame): nothing is kept */ }

  let opened = null;
  const db = () => opened || (opened = new Promise((ok, fail) => {
    if (!tab || !window.indexedDB) { fail(new Error('this browser offers no storage to the page')); return; }
    const r = indexedDB.open('rml', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('sessions');
    r.onsuccess = () => ok(r.result);
    r.onerror = () => fail(r.error);
    r.onblocked = () => fail(new Error('the storage is held by another version of the page'));
  }));
  // tx runs f(store) in a transaction and resolves with what f's last
  // request gave, once the transaction is done.
  const tx = (mode, f) => db().then((d) => new Promise((ok, fail) => {
    const t = d.transaction('sessions', mode);
    let out;
    f(t.objectStore('sessions'), (v) => { out = v; });
    t.oncomplete = () => ok(out);
    t.onerror = () => fail(t.error);
    t.onabort = () => fail(t.error || new Error('the storage refused it'));
  }));

  let restored = null; // the key of the record restored
  const saved = tx('readonly', (st, set) => {
    const all = st.openCursor();
    let own = null, newest = null;
    all.onsuccess = () => {
      const c = all.result;
      if (c) {
        if (c.key === tab && c.value.hash === location.hash) own = { key: c.key, value: c.value };
        if (!newest || c.value.at > newest.value.at) newest = { key: c.key, value: c.value };
        c.continue();
        return;
      }
      const pick = own || (location.hash.replace(/^#/, '') === '' ? newest : null);
      if (pick) restored = pick.key;
      set(pick ? pick.value : null);
    };
  }).catch(() => null);

  const save = (session, csv, triplets) => tx('readwrite', (st) => {
    const get = st.get(tab);
    get.onsuccess = () => {
      const old = get.result || {};
      st.put({
        at: Date.now(),
        hash: location.hash,
        session,
        csv: csv === undefined ? (old.csv || '') : csv,
        triplets: triplets === undefined ? (old.triplets || '') : triplets,
      }, tab);
      // The newest KEEP records stay.
      const all = st.openCursor();
      const ats = [];
      all.onsuccess = () => {
        const c = all.result;
        if (c) { ats.push([c.value.at, c.key]); c.continue(); return; }
        ats.sort((a, b) => b[0] - a[0]);
        for (const [, k] of ats.slice(KEEP)) if (k !== tab) st.delete(k);
      };
    };
  });

  const forget = () => tx('readwrite', (st) => {
    st.delete(tab);
    if (restored && restored !== tab) st.delete(restored);
    restored = null;
  });

  return { saved, save, forget };
})();

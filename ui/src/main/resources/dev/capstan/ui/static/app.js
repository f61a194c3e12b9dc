'use strict';
// The view: five pages (overview, graph, replicas, a Kustomization, a HelmRelease), re-fetched when the server's event
// stream says something changed. Every value from the cluster goes through esc() before it
// becomes markup.
(function () {
  const main = document.getElementById('main');
  const token = document.querySelector('meta[name="capstan-token"]').content;
  const collapsed = new Set();
  const zoom = { scale: 1, x: 0, y: 0 };
  let inFlight = false;
  let sourceKey = '';
  let again = false;
  let drift = null; // the last drift answer for the open Kustomization's page
  let lastRow = null;

  // Every request of the page: a view started again (a new token) no longer knows this browser,
  // and its answer says how to get in again.
  async function call(path, options) {
    const res = await fetch(path, options);
    if (res.status === 401) throw new Error((await res.json()).message);
    return res;
  }

  function esc(text) {
    return String(text == null ? '' : text).replace(/[&<>"']/g, c => ({
      '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  }

  function route() {
    const hash = location.hash || '#/';
    if (hash.startsWith('#/ks/')) {
      const [ns, name] = hash.substring(5).split('/').map(decodeURIComponent);
      return { page: 'ks', ns, name };
    }
    if (hash.startsWith('#/hr/')) {
      const [ns, name] = hash.substring(5).split('/').map(decodeURIComponent);
      return { page: 'hr', ns, name };
    }
    if (hash === '#/replicas') return { page: 'replicas' };
    return { page: hash === '#/graph' ? 'graph' : 'overview' };
  }

  async function refresh() {
    if (inFlight) { again = true; return; }
    inFlight = true;
    try {
      const r = route();
      let drawn;
      if (r.page === 'overview') drawn = await overview();
      else if (r.page === 'graph') drawn = await graph();
      else if (r.page === 'replicas') drawn = await replicas();
      else if (r.page === 'hr') drawn = await helmRelease(r.ns, r.name);
      else drawn = await kustomization(r.ns, r.name);
      if (drawn !== false) {
        document.body.dataset.rendered = String(Number(document.body.dataset.rendered || 0) + 1);
        document.body.dataset.renderedAt = String(performance.now());
      }
    } catch (e) {
      main.querySelector('#error')?.remove();
      main.insertAdjacentHTML('afterbegin', '<p id="error" class="problem">Cannot reach the view\'s server: ' + esc(e.message) + '</p>');
    } finally {
      inFlight = false;
      if (again) { again = false; refresh(); }
    }
  }

  // ---- overview -------------------------------------------------------------------------------
  function overviewSkeleton() {
    main.innerHTML = '<div class="counts" id="counts"></div>'
      + '<div class="filters"><input id="search" type="search" placeholder="search names, revisions, messages">'
      + '<select id="ns-filter"><option value="">all namespaces</option></select>'
      + '<select id="status-filter"><option value="">any status</option><option value="ready">Ready</option>'
      + '<option value="notready">Not ready</option><option value="unhealthy">Unhealthy</option>'
      + '<option value="suspended">Suspended</option></select></div>'
      + '<h2>Kustomizations</h2><div id="ks-table"></div><h2>HelmReleases</h2><div id="hr-table"></div>'
      + '<div id="source-tables"></div>';
    main.dataset.page = 'overview';
    ['search', 'ns-filter', 'status-filter'].forEach(id => ['input', 'change'].forEach(type =>
      main.querySelector('#' + id).addEventListener(type, () => renderOverview(lastOverview))));
  }

  let lastOverview = null;
  let lastOverviewText = null;
  // The overview and the graph fetch again at any change in view, mostly one that leaves them as
  // they were (another namespace's object retrying): drawn again only when their answer differs,
  // so that what the user is reading or pointing at stays in place. False when nothing was drawn.
  async function overview() {
    if (main.dataset.page !== 'overview') { overviewSkeleton(); lastOverviewText = null; }
    const res = await call('/api/overview');
    const text = await res.text();
    if (text === lastOverviewText) return false;
    lastOverviewText = text;
    lastOverview = JSON.parse(text);
    renderOverview(lastOverview);
    return true;
  }

  function state(row) {
    if (row.suspended) return 'suspended';
    if (row.ready === 'False' || row.healthy === 'False') return 'failing';
    return row.ready === 'True' ? 'ready' : 'unknown';
  }

  function matches(row) {
    const q = main.querySelector('#search').value.trim().toLowerCase();
    const ns = main.querySelector('#ns-filter').value;
    const st = main.querySelector('#status-filter').value;
    if (ns && row.namespace !== ns) return false;
    if (st === 'ready' && row.ready !== 'True') return false;
    if (st === 'notready' && row.ready === 'True') return false;
    if (st === 'unhealthy' && row.healthy !== 'False') return false;
    if (st === 'suspended' && !row.suspended) return false;
    if (!q) return true;
    return [row.namespace, row.name, row.revision, row.message, row.reason].some(v => (v || '').toLowerCase().includes(q));
  }

  function renderOverview(data) {
    if (!data) return;
    const c = data.counts;
    main.querySelector('#counts').innerHTML = [['total', 'Kustomizations', c.total], ['ready', 'Ready', c.ready],
      ['notready', 'Not ready', c.notReady], ['unhealthy', 'Unhealthy', c.unhealthy], ['suspended', 'Suspended', c.suspended]]
      .map(([id, label, n]) => '<div class="count" id="count-' + id + '"><b>' + n + '</b>' + label + '</div>').join('');
    const select = main.querySelector('#ns-filter');
    const namespaces = [...new Set(data.kustomizations.concat(data.helmReleases, ...data.sources.map(s => s.rows)).map(r => r.namespace))].sort();
    const chosen = select.value;
    select.innerHTML = '<option value="">all namespaces</option>' + namespaces.map(ns =>
      '<option' + (ns === chosen ? ' selected' : '') + ' value="' + esc(ns) + '">' + esc(ns) + '</option>').join('');
    const problem = kind => data.problems.filter(p => p.kind === kind)
      .map(p => '<p class="problem" data-kind="' + esc(p.kind) + '">' + esc(p.message) + '</p>').join('');
    main.querySelector('#ks-table').innerHTML = problem('Kustomizations') + table(data.kustomizations.filter(matches), 'ks');
    main.querySelector('#hr-table').innerHTML = problem('HelmReleases') + table(data.helmReleases.filter(matches), 'hr');
    // One section per source kind, in the server's order; made once, then only their tables change.
    const sections = main.querySelector('#source-tables');
    data.sources.forEach(s => {
      const id = 'table-' + s.kinds;
      if (!document.getElementById(id)) {
        sections.insertAdjacentHTML('beforeend', '<h2>' + esc(s.kinds) + '</h2><div id="' + esc(id) + '"></div>');
      }
      document.getElementById(id).innerHTML = problem(s.kinds) + table(s.rows.filter(matches), 'source');
    });
  }

  // kind: 'ks' (Kustomizations), 'hr' (HelmReleases: their chart and release version) or 'source'.
  function table(rows, kind) {
    const healthy = kind !== 'source';
    const head = '<tr><th>Namespace</th><th>Name</th><th>Ready</th>' + (healthy ? '<th>Healthy</th>' : '')
      + (kind === 'hr' ? '<th>Chart</th><th>Release</th>' : '<th>Revision</th>')
      + '<th>Suspended</th><th>Last change</th>' + (kind === 'ks' ? '<th>Replica</th>' : '')
      + '<th>' + (kind === 'hr' ? 'Status' : 'Message') + '</th></tr>';
    const body = rows.map(r => {
      const name = healthy ? '<a href="#/' + kind + '/' + encodeURIComponent(r.namespace) + '/' + encodeURIComponent(r.name) + '">' + esc(r.name) + '</a>' : esc(r.name);
      return '<tr class="row ' + state(r) + '" data-id="' + esc(r.kind + '/' + r.namespace + '/' + r.name) + '" data-state="' + state(r) + '">'
        + '<td>' + esc(r.namespace) + '</td><td>' + name + '</td><td class="s-' + esc(r.ready) + '">' + esc(r.ready) + '</td>'
        + (healthy ? '<td class="s-' + esc(r.healthy) + '">' + esc(r.healthy) + '</td>' : '')
        + '<td>' + esc(r.revision) + '</td>' + (kind === 'hr' ? '<td class="release">' + esc(r.release) + '</td>' : '')
        + '<td>' + (r.suspended ? 'yes' : '') + '</td><td>' + esc(r.lastChange) + '</td>'
        + (kind === 'ks' ? '<td class="replica">' + esc(r.replica) + '</td>' : '')
        + '<td class="msg">' + esc(r.message) + '</td></tr>';
    }).join('');
    return '<table class="' + (kind === 'source' ? 'repos' : kind) + '">' + head + body + '</table>'
      + (rows.length ? '' : '<p class="note">none to show</p>');
  }

  // ---- replicas -------------------------------------------------------------------------------
  // The replicas of a sharded engine as their Leases and shard map say; drawn again only when the
  // answer differs (a renewal changes the renew time shown, nothing else does).
  let lastReplicasText = null;
  async function replicas() {
    if (main.dataset.page !== 'replicas') {
      main.innerHTML = '<h2>Replicas</h2><div id="replicas"></div>';
      main.dataset.page = 'replicas';
      lastReplicasText = null;
    }
    const res = await call('/api/replicas');
    const text = await res.text();
    recheckReplicas(JSON.parse(text).recheckAt);
    if (text === lastReplicasText) return false;
    lastReplicasText = text;
    const data = JSON.parse(text);
    main.querySelector('#replicas').innerHTML =
      data.problems.map(p => '<p class="problem" data-kind="Leases">' + esc(p) + '</p>').join('')
      + '<p class="note" id="replicas-note">' + esc(data.note) + '</p>'
      + data.groups.map(replicaGroup).join('');
    return true;
  }

  // A replica that dies sends no change (its Lease just stops being renewed): ask again when the
  // earliest live one would expire. At least a second apart, should this clock run ahead.
  let replicasTimer = null;
  function recheckReplicas(at) {
    clearTimeout(replicasTimer);
    replicasTimer = null;
    if (!at) return;
    const wait = Math.min(Math.max(Date.parse(at) - Date.now() + 500, 1000), 3600000);
    replicasTimer = setTimeout(() => { if (route().page === 'replicas') refresh(); }, wait);
  }

  function replicaGroup(g) {
    const head = '<tr><th>Replica</th><th>State</th><th>Lease</th><th>Holder</th><th>Process</th>'
      + '<th>Last renew</th><th>Duration</th><th>Slots</th><th>Slot ranges</th><th>Hash ranges</th>'
      + '<th>Kustomizations</th></tr>';
    const body = g.replicas.map(r => {
      const st = r.state.toLowerCase().replace('_', ' ');
      return '<tr class="replica-row state-' + esc(r.state.toLowerCase()) + '" data-replica="' + esc(r.name) + '">'
        + '<td>' + esc(r.name) + '</td><td class="state">' + esc(st) + '</td><td>' + esc(r.lease) + '</td>'
        + '<td>' + esc(r.holder) + '</td><td>' + esc(r.process) + '</td><td>' + esc(r.renewTime) + '</td>'
        + '<td>' + (r.lease ? esc(r.leaseDurationSeconds) + ' s' : '') + '</td>'
        + '<td class="slots">' + esc(r.slots) + '</td>'
        + '<td class="ranges">' + r.ranges.map(s => esc(s.slots)).join(', ') + '</td>'
        + '<td class="hashes">' + r.ranges.map(s => esc(s.fromHash) + '–' + esc(s.toHash)).join('<br>') + '</td>'
        + '<td class="owned">' + esc(r.kustomizations) + '</td></tr>';
    }).join('');
    const map = g.shardMap
      ? 'shard map ' + esc(g.namespace + '/' + g.shardMap) + ', key ' + esc(g.key) + ', '
        + esc(g.slots) + ' slots, ' + esc(g.unclaimed) + ' unclaimed'
      : 'no shard map yet';
    return '<section class="replica-group" data-group="' + esc(g.namespace + '/' + g.group) + '">'
      + '<h3>Group ' + esc(g.group) + ' in ' + esc(g.namespace) + '</h3><p class="note">' + map + '</p>'
      + g.problems.map(p => '<p class="problem">' + esc(p) + '</p>').join('')
      + '<table class="replicas">' + head + body + '</table></section>';
  }

  // ---- graph ----------------------------------------------------------------------------------
  function graphSkeleton() {
    main.innerHTML = '<div class="graph-tools"><button id="zoom-in">+</button><button id="zoom-out">−</button>'
      + '<button id="zoom-fit">fit</button><span class="note">click a namespace label to collapse it,'
      + ' a collapsed namespace to expand it; dashed yellow edges: waiting on a dependency not ready</span></div>'
      + '<div id="graph-box"></div>';
    main.dataset.page = 'graph';
    const box = main.querySelector('#graph-box');
    main.querySelector('#zoom-in').onclick = () => { zoom.scale *= 1.25; applyZoom(); };
    main.querySelector('#zoom-out').onclick = () => { zoom.scale /= 1.25; applyZoom(); };
    main.querySelector('#zoom-fit').onclick = fit;
    box.addEventListener('wheel', e => {
      e.preventDefault();
      zoom.scale *= e.deltaY < 0 ? 1.1 : 1 / 1.1;
      applyZoom();
    }, { passive: false });
    let drag = null;
    box.addEventListener('mousedown', e => { drag = { x: e.clientX - zoom.x, y: e.clientY - zoom.y }; });
    window.addEventListener('mouseup', () => { drag = null; });
    box.addEventListener('mousemove', e => { if (drag) { zoom.x = e.clientX - drag.x; zoom.y = e.clientY - drag.y; applyZoom(); } });
    box.addEventListener('click', e => {
      const label = e.target.closest('g.ns');
      const node = e.target.closest('g.node');
      if (node && node.dataset.id.startsWith('Namespace/')) {
        collapsed.delete(node.dataset.id.substring(10)); e.preventDefault(); refresh();
      } else if (label && e.target.classList.contains('ns-label')) {
        collapsed.add(label.dataset.namespace); refresh();
      }
    });
    zoom.fitted = false;
  }

  function applyZoom() {
    const svg = main.querySelector('#graph-box svg');
    if (svg) svg.style.transform = 'translate(' + zoom.x + 'px,' + zoom.y + 'px) scale(' + zoom.scale + ')';
  }

  function fit() {
    const svg = main.querySelector('#graph-box svg');
    const box = main.querySelector('#graph-box');
    if (!svg) return;
    const w = Number(svg.getAttribute('width')) || 1;
    const h = Number(svg.getAttribute('height')) || 1;
    zoom.scale = Math.min(1.5, box.clientWidth / w, box.clientHeight / h);
    zoom.x = 0; zoom.y = 0;
    applyZoom();
  }

  let lastGraph = null;
  async function graph() {
    if (main.dataset.page !== 'graph') { graphSkeleton(); lastGraph = null; }
    const res = await call('/api/graph.svg?collapse=' + encodeURIComponent([...collapsed].join(',')));
    const svg = await res.text();
    if (svg === lastGraph) return false;
    lastGraph = svg;
    main.querySelector('#graph-box').innerHTML = svg;
    if (!zoom.fitted) { fit(); zoom.fitted = true; } else applyZoom();
    return true;
  }

  // ---- one Kustomization ----------------------------------------------------------------------
  async function kustomization(ns, name) {
    const key = ns + '/' + name;
    const res = await call('/api/ks/' + encodeURIComponent(ns) + '/' + encodeURIComponent(name));
    const d = await res.json();
    if (main.dataset.page !== 'ks:' + key) {
      main.innerHTML = '<h2>Kustomization ' + esc(key) + '</h2>'
        + '<div class="actions"><button data-action="reconcile" id="action-reconcile">Reconcile now (with source)</button>'
        + '<button data-action="suspend" id="action-suspend">Suspend</button><button data-action="resume" id="action-resume">Resume</button>'
        + '<span id="action-result"></span></div><div id="ks-body"></div>'
        + '<section id="drift"><h3>Drift</h3><div class="drift-head"><button id="drift-again">Compute again</button>'
        + ' <span id="drift-state"></span></div><div id="drift-body"></div></section>';
      main.dataset.page = 'ks:' + key;
      main.querySelectorAll('.actions button').forEach(b => b.onclick = () => act(b.dataset.action, ns, name, 'ks'));
      drift = null;
      main.querySelector('#drift-again').onclick = () => askDrift(ns, name, true);
      // Computed once when the page opens (and on the button), never on a live update.
      askDrift(ns, name, false);
    }
    const body = main.querySelector('#ks-body');
    if (!res.ok) { body.innerHTML = '<p class="problem">' + esc(d.message) + '</p>'; return; }
    const r = d.row;
    lastRow = r;
    sourceKey = d.source.kind + '/' + d.source.namespace + '/' + d.source.name;
    // Drift reported (spec.driftDetection.mode: warn) is said above everything: nothing corrects it.
    const drifted = d.conditions.find(c => c.type === 'Drifted' && c.status === 'True');
    body.innerHTML = (drifted ? '<p class="problem" id="drifted"><b>Drifted</b> (reported, not corrected): ' + esc(drifted.message) + '</p>' : '')
      + '<table class="summary" id="summary"><tr><th>Ready</th><th>Healthy</th><th>Revision</th><th>Suspended</th><th>Message</th></tr>'
      + '<tr class="row ' + state(r) + '" data-state="' + state(r) + '"><td class="s-' + esc(r.ready) + '">' + esc(r.ready) + '</td><td class="s-' + esc(r.healthy) + '">' + esc(r.healthy) + '</td><td>'
      + esc(r.revision) + '</td><td>' + (r.suspended ? 'yes' : 'no') + '</td><td class="msg">' + esc(r.message) + '</td></tr></table>'
      + conditionsTable(d.conditions)
      + '<h3>Last reconciles</h3>' + (d.reconciles.length ? '' : '<p class="note">none recorded yet</p>')
      + '<table id="reconciles"><tr><th>Outcome</th><th>Count</th><th>Revision</th><th>Digest</th><th>First</th><th>Last</th><th>Took</th></tr>'
      + d.reconciles.map(h => '<tr><td>' + esc(h.status) + '</td><td>' + esc(h.count) + '</td><td>' + esc(h.revision)
        + (h.originRevision ? ' <i>(origin ' + esc(h.originRevision) + ')</i>' : '') + '</td><td title="' + esc(h.digest) + '">' + esc(h.digest.substring(0, 19))
        + '</td><td>' + esc(h.firstReconciled) + '</td><td>' + esc(h.lastReconciled) + '</td><td>' + esc(h.duration) + '</td></tr>').join('') + '</table>'
      + '<h3>History (Events)</h3>' + (d.historyNote ? '<p class="problem">' + esc(d.historyNote) + '</p>' : '')
      + '<table id="history"><tr><th>Last seen</th><th>Type</th><th>Reason</th><th>Count</th><th>Message</th></tr>'
      + d.history.map(e => '<tr><td>' + esc(e.lastSeen) + '</td><td>' + esc(e.type) + '</td><td>' + esc(e.reason) + '</td><td>' + esc(e.count)
        + '</td><td class="msg">' + esc(e.message) + '</td></tr>').join('') + '</table>'
      + '<h3>Source</h3><p id="source">' + esc(d.source.kind) + ' ' + esc(d.source.namespace) + '/' + esc(d.source.name)
      + ': <b>' + esc(d.source.revision || '(no revision yet)') + '</b></p><p id="commit"></p><p class="note" id="source-note">' + esc(d.source.note) + '</p>'
      + inventoryTree(d.inventory, d.inventoryNote);
    renderCommit();
    renderDrift();
  }

  function conditionsTable(conditions) {
    return '<h3>Conditions</h3><table id="conditions"><tr><th>Type</th><th>Status</th><th>Reason</th><th>Message</th><th>Since</th></tr>'
      + conditions.map(c => '<tr><td>' + esc(c.type) + '</td><td class="s-' + esc(c.status) + '">' + esc(c.status) + '</td><td>' + esc(c.reason)
        + '</td><td class="msg">' + esc(c.message) + '</td><td>' + esc(c.lastTransitionTime) + '</td></tr>').join('') + '</table>';
  }

  function inventoryTree(inventory, note) {
    return '<h3>Inventory</h3>' + (note ? '<p class="note">' + esc(note) + '</p>' : '')
      + '<div class="tree" id="inventory"><ul>' + inventory.map(n => '<li>' + esc(n.namespace) + '<ul>'
        + n.kinds.map(k => '<li>' + esc(k.kind) + '<ul>' + k.objects.map(o => '<li class="obj" data-name="' + esc(k.kind + '/' + o.name)
          + '" data-status="' + esc(o.status) + '"><span class="obj-' + esc(o.status) + '">' + esc(o.status) + '</span> ' + esc(o.name)
          + (o.reason ? ' <i>' + esc(o.reason) + '</i>' : '') + (o.message ? ': ' + esc(o.message) : '') + '</li>').join('') + '</ul></li>').join('')
        + '</ul></li>').join('') + '</ul></div>';
  }

  // ---- one HelmRelease ------------------------------------------------------------------------
  async function helmRelease(ns, name) {
    const key = ns + '/' + name;
    const res = await call('/api/hr/' + encodeURIComponent(ns) + '/' + encodeURIComponent(name));
    const d = await res.json();
    if (main.dataset.page !== 'hr:' + key) {
      main.innerHTML = '<h2>HelmRelease ' + esc(key) + '</h2>'
        + '<div class="actions"><button data-action="reconcile" id="action-reconcile">Reconcile now</button>'
        + '<button data-action="suspend" id="action-suspend">Suspend</button><button data-action="resume" id="action-resume">Resume</button>'
        + '<span id="action-result"></span></div><div id="hr-body"></div>';
      main.dataset.page = 'hr:' + key;
      main.querySelectorAll('.actions button').forEach(b => b.onclick = () => act(b.dataset.action, ns, name, 'hr'));
    }
    const body = main.querySelector('#hr-body');
    if (!res.ok) { body.innerHTML = '<p class="problem">' + esc(d.message) + '</p>'; return; }
    const r = d.row;
    sourceKey = '';
    body.innerHTML = '<table class="summary" id="summary"><tr><th>Ready</th><th>Healthy</th><th>Chart</th><th>Release</th><th>Suspended</th><th>Status</th></tr>'
      + '<tr class="row ' + state(r) + '" data-state="' + state(r) + '"><td class="s-' + esc(r.ready) + '">' + esc(r.ready) + '</td><td class="s-' + esc(r.healthy) + '">'
      + esc(r.healthy) + '</td><td>' + esc(r.revision) + '</td><td>' + esc(r.release) + '</td><td>' + (r.suspended ? 'yes' : 'no')
      + '</td><td class="msg">' + esc(r.message) + '</td></tr></table>'
      + '<p class="note" id="chart-source">Chart: ' + esc(d.chart || '(not set)') + '</p>'
      + conditionsTable(d.conditions)
      + '<h3>Release history</h3>' + (d.releases.length ? '' : '<p class="note">no release recorded yet</p>')
      + '<table id="releases"><tr><th>Version</th><th>Status</th><th>Action</th><th>Chart</th><th>Chart version</th><th>App version</th>'
      + '<th>Deployed</th><th>Digest</th></tr>'
      + d.releases.map(h => '<tr class="release" data-version="' + esc(h.version) + '"><td>' + esc(h.version) + '</td><td>' + esc(h.status)
        + '</td><td>' + esc(h.action) + '</td><td>' + esc(h.chartName) + '</td><td>' + esc(h.chartVersion) + '</td><td>' + esc(h.appVersion)
        + '</td><td title="first deployed ' + esc(h.firstDeployed) + '">' + esc(h.lastDeployed) + '</td><td title="' + esc(h.digest) + '">'
        + esc(h.digest.substring(0, 19)) + '</td></tr>').join('') + '</table>'
      + inventoryTree(d.inventory, d.inventoryNote);
  }

  // ---- drift ----------------------------------------------------------------------------------
  async function askDrift(ns, name, fresh) {
    const page = 'ks:' + ns + '/' + name;
    const path = '/api/ks/' + encodeURIComponent(ns) + '/' + encodeURIComponent(name) + '/drift';
    try {
      let res = await call(path + (fresh ? '?again=1' : ''), { method: 'POST', headers: { 'X-Capstan-Token': token } });
      let answer = await res.json();
      while (main.dataset.page === page && res.ok && answer.state === 'RUNNING') {
        drift = answer; renderDrift();
        await new Promise(done => setTimeout(done, 1000));
        res = await call(path);
        answer = await res.json();
      }
      if (main.dataset.page !== page) return;
      drift = res.ok ? answer : { state: 'FAILED', message: answer.message, objects: [] };
    } catch (e) {
      if (main.dataset.page !== page) return;
      drift = { state: 'FAILED', message: 'cannot reach the view\'s server: ' + e.message, objects: [] };
    }
    renderCommit();
    renderDrift();
  }

  function renderCommit() {
    const out = main.querySelector('#commit');
    if (!out) return;
    const c = drift && drift.commit;
    const note = main.querySelector('#source-note');
    if (note) note.hidden = Boolean(c);
    out.innerHTML = c ? 'commit <code>' + esc(c.id.substring(0, 12)) + '</code> by <span id="commit-author">' + esc(c.author)
      + '</span> at ' + esc(c.time) + ': <q id="commit-subject">' + esc(c.subject) + '</q>' : '';
  }

  function renderDrift() {
    const state = main.querySelector('#drift-state');
    const body = main.querySelector('#drift-body');
    if (!state || !body) return;
    const d = drift || { state: 'RUNNING', message: 'asking…', objects: [] };
    state.dataset.state = d.state;
    state.className = 'drift-' + d.state;
    state.textContent = { NOT_ASKED: 'not computed', RUNNING: 'computing…', DONE: 'computed', FAILED: 'failed',
      TIMED_OUT: 'timed out', UNAVAILABLE: 'not available', REFUSED: 'refused' }[d.state] || d.state;
    main.querySelector('#drift-again').disabled = d.state === 'RUNNING';
    const stale = d.state === 'DONE' && lastRow && lastRow.revision && d.revision && lastRow.revision !== d.revision;
    const bad = ['FAILED', 'TIMED_OUT', 'UNAVAILABLE', 'REFUSED'].includes(d.state);
    body.innerHTML = (d.revision ? '<p class="note" id="drift-revision">Revision <b>' + esc(d.revision) + '</b>, '
        + esc(d.revisionFrom) + (d.computedAt ? '; answered at ' + esc(d.computedAt) : '') + '.</p>' : '')
      + (stale ? '<p class="problem">The Kustomization now records revision ' + esc(lastRow.revision) + ': compute again.</p>' : '')
      + '<p id="drift-message" class="' + (bad ? 'problem' : 'note') + '">' + esc(d.message) + '</p>'
      + (d.objects || []).map(o => '<div class="drift-obj" data-ref="' + esc(o.ref) + '" data-change="' + esc(o.change) + '"><h4>'
        + ({ CREATED: '+ ', CHANGED: '~ ', FAILED: '! ' }[o.change] || '') + esc(o.ref)
        + ({ CREATED: ' (would be created)', CHANGED: ' (differs: apply would change it)', FAILED: ' (cannot be compared)' }[o.change] || '')
        + '</h4><pre class="diff">' + o.text.split('\n').map(line => '<span class="' + diffClass(line) + '">' + esc(line) + '</span>').join('\n')
        + '</pre></div>').join('');
  }

  function diffClass(line) {
    if (line.startsWith('+++') || line.startsWith('---')) return 'd-file';
    if (line.startsWith('@@')) return 'd-hunk';
    return line.startsWith('+') ? 'd-add' : line.startsWith('-') ? 'd-del' : 'd-ctx';
  }

  function confirmAction(text) {
    const dialog = document.getElementById('confirm');
    document.getElementById('confirm-text').textContent = text;
    return new Promise(resolve => {
      dialog.onclose = () => resolve(dialog.returnValue === 'ok');
      dialog.showModal();
    });
  }

  async function act(action, ns, name, kind) {
    if (!await confirmAction(action + (kind === 'hr' ? ' HelmRelease ' : ' Kustomization ') + ns + '/' + name + '?')) return;
    const out = main.querySelector('#action-result');
    out.className = ''; out.textContent = action + '…';
    try {
      const res = await call('/api/' + kind + '/' + encodeURIComponent(ns) + '/' + encodeURIComponent(name) + '/' + action,
        { method: 'POST', headers: { 'X-Capstan-Token': token } });
      const result = await res.json();
      out.className = result.ok ? 'ok' : 'refused';
      out.textContent = (result.ok ? '' : 'refused: ') + result.message;
    } catch (e) {
      out.className = 'refused'; out.textContent = 'failed: ' + e.message;
    }
  }

  // ---- live updates ---------------------------------------------------------------------------
  // Whether a change of these objects alters what the page shows: the graph draws Kustomizations
  // only; a Kustomization's or HelmRelease's page reads its inventory from the API server, so only
  // when it (or its source) changed. A kind's problem line ('Problem/...') is on the overview alone,
  // but the Leases' on the Replicas page.
  function shows(r, keys) {
    if (keys.includes('*')) return true;
    // Leases are the Replicas page's alone; it also counts the Kustomizations' owner labels.
    if (r.page === 'replicas') {
      return keys.some(k => k.startsWith('Lease/') || k.startsWith('Kustomization/') || k.startsWith('Problem/Leases'));
    }
    if (r.page === 'overview') return keys.some(k => !k.startsWith('Lease/') && !k.startsWith('Problem/Leases'));
    if (r.page === 'graph') return keys.some(k => k.startsWith('Kustomization/'));
    const kind = r.page === 'hr' ? 'HelmRelease/' : 'Kustomization/';
    return keys.includes(kind + r.ns + '/' + r.name) || keys.includes(sourceKey);
  }

  function connect() {
    const live = document.getElementById('live');
    const source = new EventSource('/events');
    source.addEventListener('hello', () => { live.className = 'live on'; refresh(); });
    source.addEventListener('change', e => {
      const keys = JSON.parse(e.data).keys;
      if (shows(route(), keys)) refresh();
    });
    source.onerror = () => { live.className = 'live off'; };
  }

  window.addEventListener('hashchange', () => { main.dataset.page = ''; refresh(); });
  // The first fetch waits for the event stream to be open, so no change falls between the two.
  connect();
})();

// The report page's script: decodes the columnar data (report_data.hpp), fills the
// header and tables, and draws the timeline on a canvas. Everything from the history
// is inserted as text (textContent), never as markup. Drawing cost follows what is on
// screen, not the history's size: each lane's ops are found by binary search (a lane's
// ops never overlap, so their ends ascend), and a lane holding more than one op per
// four pixels is drawn as a density summary instead of bars. When first drawn it sets
// document.body.dataset.ready and exposes window.ariadneReport for tests.
//
// The build compiles this file into the library (cmake/EmbedText.cmake) without this
// leading comment, so that every report does not carry it.

(function () {
  'use strict';

  // ---- Data: decode the columns (see report/report_data.hpp) ----
  const data = JSON.parse(document.getElementById('ariadne-data').textContent);
  const parsedMs = performance.now();
  const ops = data.ops;
  const N = ops.count;
  const strings = data.strings;

  function undiff(values, Type) {
    const out = new Type(values.length);
    let previous = 0;
    for (let i = 0; i < values.length; i++) { previous += values[i]; out[i] = previous; }
    return out;
  }
  const times = undiff(data.times, Float64Array);
  const T = times.length;
  const ids = undiff(ops.id, Float64Array);
  const call = undiff(ops.call, Int32Array);
  const lane = Int32Array.from(ops.lane);
  const ret = new Int32Array(N);   // -1: open (crashed)
  for (let i = 0; i < N; i++) ret[i] = ops.span[i] < 0 ? -1 : call[i] + ops.span[i];
  const status = ops.status;
  let crashedCount = 0;
  for (let i = 0; i < N; i++) if (ret[i] < 0) crashedCount++;
  // Slot k spans [k, k + 1) and its event sits at k + 0.5; when some op crashed, one
  // more slot past the last event is "the end", where crashed ops stay open.
  const DOMAIN = crashedCount ? T + 1 : T;
  const text = ops.text;
  const stateAfter = ops.stateAfter.length ? Int32Array.from(ops.stateAfter) : null;
  const partition = ops.partition.length ? Int32Array.from(ops.partition) : null;
  const processes = data.processes;
  const L = processes.length;
  const verdict = data.verdict;
  const violation = verdict === 'not-linearizable';

  const linearization = undiff(data.linearization, Int32Array);
  const prefix = undiff(data.prefix, Int32Array);
  const core = undiff(data.core, Int32Array);
  const order = violation ? prefix : linearization;   // the order whose points are drawn
  const failing = data.failing;
  const facts = [];
  for (let k = 0; k + 1 < data.coreFacts.length; k += 2) facts.push([data.coreFacts[k], data.coreFacts[k + 1]]);
  // Each named op's part in the violation (report/violation_summary.hpp), -1 for none.
  const ROLES = ['refused', 'source', 'cause', 'late', 'context'];
  const REFUSED_ROLE = 0, SOURCE_ROLE = 1, CAUSE_ROLE = 2, LATE_ROLE = 3, CONTEXT_ROLE = 4;
  const roleOf = new Int8Array(N).fill(-1);
  data.roles.op.forEach((i, k) => { roleOf[i] = ROLES.indexOf(data.roles.role[k]); });
  const partitionKeys = data.partitionKeys;
  const keyed = partition !== null && partitionKeys.length > 1;

  const isCrashed = (i) => ret[i] < 0;
  const startOf = (i) => call[i] + 0.5;
  const endOf = (i) => (ret[i] < 0 ? DOMAIN : ret[i] + 0.5);

  // Each op's place in the order, the model state before it, and its core membership.
  const rank = new Int32Array(N).fill(-1);
  for (let k = 0; k < order.length; k++) rank[order[k]] = k;
  const stateBefore = new Int32Array(N).fill(-1);
  const orderEnd = new Map();   // partition -> the state after its last op in the order
  if (stateAfter) {
    const last = orderEnd;
    for (let k = 0; k < order.length; k++) {
      const i = order[k];
      const p = partition ? partition[i] : 0;
      stateBefore[i] = last.has(p) ? last.get(p) : (data.initialState[p] ?? -1);
      last.set(p, stateAfter[i]);
    }
  }
  const inCore = new Uint8Array(N);
  for (const i of core) inCore[i] = 1;

  // Styles, in drawing order (later ones are drawn on top). A violation's ops are drawn
  // by their part in it (the styles from CONTEXT on, the same colours as in report.css).
  const STYLES = [
    { name: 'dim', fill: '#e2e8f0', stroke: '#cbd5e1', text: '#64748b', summary: '#94a3b8' },
    { name: 'idle', fill: '#cbd5e1', stroke: '#94a3b8', text: '#334155', summary: '#94a3b8' },
    { name: 'plain', fill: '#94a3b8', stroke: '#475569', text: '#0f172a', summary: '#475569' },
    { name: 'order', fill: '#60a5fa', stroke: '#1d4ed8', text: '#0b1e4a', summary: '#2563eb' },
    { name: 'context', fill: '#fca5a5', stroke: '#b91c1c', text: '#450a0a', summary: '#f87171' },
    { name: 'late', fill: '#c4b5fd', stroke: '#6d28d9', text: '#2e1065', summary: '#8b5cf6' },
    { name: 'source', fill: '#5eead4', stroke: '#0f766e', text: '#042f2e', summary: '#14b8a6' },
    { name: 'cause', fill: '#ef4444', stroke: '#7f1d1d', text: '#ffffff', summary: '#dc2626' },
    { name: 'refused', fill: '#fb923c', stroke: '#9a3412', text: '#431407', summary: '#ea580c' },
  ];
  const DIM = 0, IDLE = 1, PLAIN = 2, ORDER = 3, CONTEXT = 4, LATE = 5, SOURCE = 6, CAUSE = 7, REFUSED = 8;
  const ROLE_STYLE = [REFUSED, SOURCE, CAUSE, LATE, CONTEXT];   // by role
  const style = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    if (violation) style[i] = roleOf[i] >= 0 ? ROLE_STYLE[roleOf[i]] : i === failing ? REFUSED : inCore[i] ? CONTEXT : DIM;
    else if (verdict === 'linearizable') style[i] = rank[i] >= 0 ? ORDER : IDLE;
    else style[i] = PLAIN;
  }

  // The ops in view: every op, or one key's (the key list). The rows drawn are the
  // lanes in process order, all of them or those holding some op of the key, and
  // laneOps[r] holds row r's ops by call. A process has one op open at a time and never
  // invokes after a crash, so within a lane the ops do not overlap and ends ascend too.
  let selectedKey = -1;
  const inView = new Uint8Array(N).fill(1);
  const rowOf = new Int32Array(L).fill(-1);   // lane -> row, -1 when not drawn
  let rows = [], laneOps = [];
  let viewFrom = 0, viewTo = DOMAIN;          // the slots that Fit shows
  const rowOfOp = (i) => rowOf[lane[i]];
  function selectOps(key) {
    selectedKey = key;
    const counts = new Int32Array(L);
    viewFrom = Infinity; viewTo = -Infinity;
    for (let i = 0; i < N; i++) {
      inView[i] = key < 0 || partition[i] === key ? 1 : 0;
      if (!inView[i]) continue;
      counts[lane[i]]++;
      viewFrom = Math.min(viewFrom, startOf(i)); viewTo = Math.max(viewTo, endOf(i));
    }
    if (key < 0 || !(viewTo > viewFrom)) { viewFrom = 0; viewTo = DOMAIN; }
    rows = []; rowOf.fill(-1);
    for (let l = 0; l < L; l++) if (key < 0 || counts[l]) { rowOf[l] = rows.length; rows.push(l); }
    laneOps = rows.map((l) => new Int32Array(counts[l]));
    const fill = new Int32Array(rows.length);
    for (let i = 0; i < N; i++) if (inView[i]) { const r = rowOfOp(i); laneOps[r][fill[r]++] = i; }
  }
  selectOps(-1);

  // Linearization points: each op's earliest point the order allows (forward pass)
  // and its latest (backward pass), at least `gap` slots apart so that points of
  // concurrent ops read in order; the midpoint of the two lies in the op's interval
  // and ascends with the order. The gap shrinks until the order fits.
  const point = new Float64Array(order.length);
  {
    const n = order.length, early = new Float64Array(n), late = new Float64Array(n);
    const last = DOMAIN - 0.2;
    for (const gap of [0.3, 0.1, 0.02, 0]) {
      let fits = true;
      for (let k = 0; k < n; k++) early[k] = Math.max(startOf(order[k]), k ? early[k - 1] + gap : -Infinity);
      for (let k = n - 1; k >= 0; k--) late[k] = Math.min(endOf(order[k]), last, k + 1 < n ? late[k + 1] - gap : Infinity);
      for (let k = 0; k < n && fits; k++) fits = early[k] <= late[k] + 1e-9;
      if (fits || gap === 0) break;
    }
    for (let k = 0; k < n; k++) {
      const i = order[k];
      point[k] = Math.min(Math.max((early[k] + late[k]) / 2, startOf(i)), endOf(i));
    }
  }

  function indexOfId(id) {
    let lo = 0, hi = N;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (ids[mid] < id) lo = mid + 1; else hi = mid; }
    return lo < N && ids[lo] === id ? lo : -1;
  }

  // ---- Header, explanation, legend, tables ----
  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') node.className = v; else if (k === 'text') node.textContent = v; else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c);
    return node;
  }
  const fmt = (n) => Number(n).toLocaleString('en-US');
  const describe = (i) => strings[text[i]];
  const processName = (i) => 'process ' + processes[lane[i]];

  const verdictWords = { 'linearizable': 'Linearizable', 'not-linearizable': 'Not linearizable', 'unknown': 'Unknown' };
  $('verdict').textContent = verdictWords[verdict] || verdict;
  $('verdict').classList.add(verdict);
  $('file').textContent = data.file;
  document.body.dataset.verdict = verdict;
  const meta = [
    ['Model', data.model], ['Engine', data.engine || '-'],
    ['Operations', fmt(N) + (crashedCount ? ' (' + fmt(crashedCount) + ' crashed)' : '')],
    ['Processes', fmt(L)], ['Partitions', fmt(data.partitions)],
    ['Checked in', data.elapsedMs === null ? '-' : (data.elapsedMs < 1000 ? data.elapsedMs.toFixed(1) + ' ms'
      : (data.elapsedMs / 1000).toFixed(2) + ' s')],
  ];
  if (violation) {
    meta.push(['Core', fmt(core.length) + ' ops' + (data.coreMinimal ? ', minimal' : '')]);
    if (data.failingPartition && data.partitions > 1) meta.push(['Failing partition', data.failingPartition]);
    if (failing >= 0) meta.push(['Failing op', String(ids[failing])]);
  } else if (verdict === 'linearizable') {
    meta.push(['Order', fmt(linearization.length) + ' ops']);
  }
  for (const [k, v] of meta) $('meta').append(el('div', {}, el('dt', { text: k }), el('dd', { text: v })));

  // What each part of a violation is, in the legend and in the hover card.
  const refusedName = failing >= 0 ? 'op ' + ids[failing] : 'the refused op';
  const ROLE_LEGEND = [
    'refused: its result is the one no order explains',
    'source: could have supplied that result, and is ruled out',
    'cause: rules that result out',
    'late: began after the refused op completed',
    data.rolesGiven ? 'context: the rest of the core, needed for the proof' : 'core op, needed for the proof',
  ];
  const ROLE_WORDS = [
    'refused: its result is the one no order explains',
    'source: could have supplied what ' + refusedName + ' observed, and is ruled out',
    'cause: rules out the orders that would explain what ' + refusedName + ' observed',
    'late: began after ' + refusedName + ' completed, so it cannot have supplied that result; the core needs it ' +
      'because its own outcome rules out the orders that would otherwise explain ' + refusedName,
    'context: in the core, which without it some order would explain',
  ];

  // A text with its op ids as links (report/op_links.hpp): a click brings the op's bar
  // into view and opens its card.
  function opLink(i, words) {
    const role = roleOf[i] >= 0 ? ROLES[roleOf[i]] : '';
    const link = el('a', { class: 'oplink' + (role ? ' role-' + role : ''), href: '#op-' + ids[i],
      'data-op': String(ids[i]), title: describe(i) + (role ? ' (' + role + ')' : '') + ': show it on the timeline',
      text: words });
    link.addEventListener('click', (event) => { event.preventDefault(); focusOp(ids[i], true); });
    return link;
  }
  function linkedText(node, linked) {
    linked.text.forEach((piece, k) => node.append(linked.op[k] < 0 ? piece : opLink(linked.op[k], piece)));
  }

  // A violation in one sentence, on top; the whole explanation below it, folded when long.
  if (violation && data.why.text.length) {
    const why = $('why');
    linkedText(why, data.why);
    why.dataset.given = data.whyGiven ? '1' : '0';
    why.hidden = false;
  }
  const explanation = $('explanation');
  explanation.classList.add(verdict);
  if (data.explanation.text.length) {
    linkedText(explanation, data.explanation);
  } else if (verdict === 'linearizable') {
    explanation.textContent = 'Linearizable: a witness order of ' + fmt(linearization.length) +
      ' operations was found and replayed by the certificate checker. Blue dots mark each operation\'s ' +
      'linearization point; hover an operation to see its place in the order and the model state before and after it.';
  } else if (violation) {
    explanation.textContent = 'Not linearizable: no order of the highlighted operations agrees with both real time and the model.';
  } else {
    explanation.textContent = 'The check did not reach a verdict.';
  }
  {
    const lines = explanation.textContent.replace(/\n$/, '').split('\n').length;
    const box = $('explanation-box');
    if (violation) {
      $('explanation-summary').textContent = 'The whole explanation (' + fmt(lines) + (lines === 1 ? ' line' : ' lines') +
        '): the core, the real-time facts that bind it and why no order works';
      box.open = lines <= 12;
    } else {
      $('explanation-summary').textContent = verdict === 'linearizable' ? 'Explanation' : 'Why there is no verdict';
      box.open = true;
    }
  }
  function countTimeline() {
    const shown = selectedKey < 0 ? N : laneOps.reduce((sum, list) => sum + list.length, 0);
    $('timeline-count').textContent = (selectedKey < 0 ? fmt(N) + ' ops' : fmt(shown) + ' of ' + fmt(N) + ' ops, key ' +
      partitionKeys[selectedKey]) + ' \u00b7 ' + fmt(rows.length) + (rows.length === 1 ? ' process' : ' processes');
  }

  function swatch(s, striped) {
    const node = el('span', { class: 'swatch' + (striped ? ' striped' : '') });
    node.style.background = STYLES[s].fill;
    if (striped) node.style.backgroundImage = 'repeating-linear-gradient(135deg, rgba(255,255,255,.8) 0 2px, transparent 2px 5px)';
    node.style.borderColor = STYLES[s].stroke;
    return node;
  }
  function legendItem(mark, words) { $('legend').append(el('span', { class: 'item' }, mark, words)); }
  function arrowMark() {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('width', '30'); svg.setAttribute('height', '12');
    const path = document.createElementNS(svg.namespaceURI, 'path');
    path.setAttribute('d', 'M2 6 H24 M19 2 L25 6 L19 10');
    path.setAttribute('stroke', '#7f1d1d'); path.setAttribute('fill', 'none'); path.setAttribute('stroke-width', '1.8');
    svg.append(path);
    return svg;
  }
  // Only what this history has: which styles occur, solid and open.
  const present = new Set();
  for (let i = 0; i < N; i++) present.add(style[i] * 2 + (ret[i] < 0 ? 1 : 0));
  const has = (s, crashed) => present.has(s * 2 + (crashed ? 1 : 0));
  if (violation) {
    for (const role of [REFUSED_ROLE, SOURCE_ROLE, CAUSE_ROLE, LATE_ROLE, CONTEXT_ROLE]) {
      const s = ROLE_STYLE[role];
      if (has(s, false) || has(s, true)) legendItem(swatch(s, !has(s, false)), ROLE_LEGEND[role]);
    }
    const crashedPart = [CONTEXT, LATE, SOURCE, CAUSE].find((s) => has(s, true));
    if (crashedPart !== undefined) {
      legendItem(swatch(crashedPart, true), 'striped: crashed, open to the end');
    }
    if (has(DIM, false)) legendItem(swatch(DIM), 'other op (dimmed)');
    if (has(DIM, true)) legendItem(swatch(DIM, true), 'other crashed op, open to the end');
    if (facts.length) legendItem(arrowMark(), 'real time: completed before the other was invoked');
    if (prefix.length) legendItem(el('span', { class: 'swatch dot' }), 'longest linearizable prefix, in order (hover one of its ops to join them)');
  } else if (verdict === 'linearizable') {
    if (has(ORDER, false)) legendItem(swatch(ORDER), 'operation');
    if (has(ORDER, true)) legendItem(swatch(ORDER, true), 'crashed op that took effect (open to the end)');
    if (has(IDLE, true)) legendItem(swatch(IDLE, true), 'crashed op that took no effect');
    if (order.length) legendItem(el('span', { class: 'swatch dot' }), 'linearization point, in order (hover for its number)');
  } else {
    if (has(PLAIN, false)) legendItem(swatch(PLAIN), 'operation');
    if (has(PLAIN, true)) legendItem(swatch(PLAIN, true), 'crashed op, open to the end');
  }
  const summaryNote = el('span', { class: 'item', id: 'summary-note', hidden: '' },
    el('span', { class: 'swatch density' }), 'zoomed out: each lane summarised (taller, darker: more ops per pixel); zoom in for single ops');
  $('legend').append(summaryNote);

  const TABLE_ROWS = 1000;
  function opTable(table, indices, withOrder) {
    const head = ['op', 'process', 'operation', 'status', 'invoked', 'completed'];
    if (withOrder) head.unshift('#');
    if (withOrder && stateAfter) head.push('state after');
    table.append(el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { text: h })))));
    const body = el('tbody');
    const shown = Math.min(indices.length, TABLE_ROWS);
    for (let k = 0; k < shown; k++) {
      const i = indices[k];
      const cells = [String(ids[i]), String(processes[lane[i]]), describe(i), statusWords(i),
        String(times[call[i]]), ret[i] < 0 ? 'never' : String(times[ret[i]])];
      if (withOrder) cells.unshift(String(k + 1));
      if (withOrder && stateAfter) cells.push(stateAfter[i] >= 0 ? strings[stateAfter[i]] : '');
      const row = el('tr', { 'data-op': String(ids[i]) }, ...cells.map((c, j) =>
        el('td', { class: j === cells.length - 1 || head[j] === 'operation' ? 'mono' : '', text: c })));
      if (i === failing) row.className = 'failing';
      row.addEventListener('click', () => focusOp(ids[i], true));
      body.append(row);
    }
    table.append(body);
    return indices.length > shown ? 'Showing the first ' + fmt(shown) + ' of ' + fmt(indices.length) + '.' : '';
  }
  function statusWords(i) {
    if (status[i] === 'c') return 'crashed';
    if (status[i] === 'f') return 'failed';
    return 'ok';
  }
  if (violation && core.length) {
    $('core-card').hidden = false;
    $('core-count').textContent = fmt(core.length) + ' ops' + (data.coreMinimal ? ', minimal' : '');
    const note = opTable($('core-table'), core, false);
    $('core-note').textContent = (note ? note + ' ' : '') +
      'Keep these operations as recorded and let every other one take effect anywhere or not at all: ' +
      'still no order works, so these alone prove the history wrong.';
    const shownFacts = facts.slice(0, 200);
    for (const [b, a] of shownFacts) {
      $('core-facts').append(el('li', {}, opLink(b, 'op ' + ids[b]), ' (' + describe(b) + ') completed before ',
        opLink(a, 'op ' + ids[a]), ' (' + describe(a) + ') was invoked'));
    }
    if (facts.length > shownFacts.length) $('core-facts').append(el('li', { text: '\u2026 and ' + fmt(facts.length - shownFacts.length) + ' more' }));
  }
  if (order.length) {
    $('order-card').hidden = false;
    if (violation) $('order-title').firstChild.textContent = 'Longest linearizable prefix';
    $('order-count').textContent = fmt(order.length) + ' ops';
    $('order-note').textContent = opTable($('order-table'), order, true);
  }

  // ---- The timeline canvas ----
  const canvas = $('canvas');
  const ctx = canvas.getContext('2d');
  const tooltip = $('tooltip');
  // MIN_LANE: the lowest lane that still holds its process's label (11 px text).
  const AXIS_H = 30, OVERVIEW_H = 34, GUTTER = 96, COLUMN = 2, MAX_SCALE = 120, MIN_LANE = 14;
  const SANS = getComputedStyle(document.body).getPropertyValue('--sans');
  const MONO = getComputedStyle(document.body).getPropertyValue('--mono');
  const view = { left: 0, scale: 1, scroll: 0 };
  let width = 0, height = 0, plotW = 0, lanesH = 0, laneH = 30;
  let hovered = -1, pinned = false, dirty = true, firstFrame = true;
  const frameStats = { summaryLanes: 0, barLanes: 0, bars: 0, points: 0, arrows: 0, lanes: 0, labels: 0 };

  function layout() {
    const dpr = window.devicePixelRatio || 1;
    width = Math.max(320, canvas.parentElement.clientWidth);
    plotW = width - GUTTER - 14;
    // Lanes share about 62% of the window, and grow to 85% rather than fall below
    // MIN_LANE; past that they scroll, every one labelled.
    const R = Math.max(1, rows.length);
    const share = Math.max(160, Math.round(window.innerHeight * 0.62) - AXIS_H - OVERVIEW_H);
    const most = Math.max(share, Math.round(window.innerHeight * 0.85) - AXIS_H - OVERVIEW_H);
    const maxLanes = Math.min(most, Math.max(share, R * MIN_LANE));
    laneH = Math.max(MIN_LANE, Math.min(34, Math.floor(maxLanes / R)));
    lanesH = Math.max(laneH, Math.min(maxLanes, R * laneH));
    height = AXIS_H + lanesH + OVERVIEW_H;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.height = height + 'px';
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    overview = null;
    clampView();
    dirty = true;
  }
  const minScale = () => plotW / DOMAIN;
  function clampView() {
    view.scale = Math.min(MAX_SCALE, Math.max(minScale(), view.scale));
    const visible = plotW / view.scale;
    view.left = Math.min(Math.max(0, view.left), Math.max(0, DOMAIN - visible));
    view.scroll = Math.min(Math.max(0, view.scroll), Math.max(0, rows.length * laneH - lanesH));
  }
  // Everything in view: the whole history, or the selected key's ops with a margin.
  function fit() {
    const span = viewTo - viewFrom, margin = viewFrom === 0 && viewTo === DOMAIN ? 0 : span * 0.02;
    view.scale = plotW / (span + 2 * margin);
    view.left = viewFrom - margin;
    clampView();
    dirty = true;
  }
  function zoomAt(px, factor) {
    const t = view.left + (px - GUTTER) / view.scale;
    view.scale *= factor;
    clampView();
    view.left = t - (px - GUTTER) / view.scale;
    clampView();
    dirty = true;
  }
  const xOf = (t) => GUTTER + (t - view.left) * view.scale;
  const laneTop = (l) => AXIS_H + l * laneH - view.scroll;
  const barBox = (l) => {
    const h = Math.max(3, Math.round(laneH * (laneH >= 20 ? 0.56 : 0.7)));
    return [laneTop(l) + (laneH - h) / 2, h];
  };

  function stripes(s) {
    const tile = document.createElement('canvas');
    tile.width = tile.height = 8;
    const g = tile.getContext('2d');
    g.fillStyle = STYLES[s].fill; g.globalAlpha = 0.45; g.fillRect(0, 0, 8, 8);
    g.globalAlpha = 1; g.strokeStyle = STYLES[s].fill; g.lineWidth = 2.5;
    g.beginPath(); g.moveTo(-2, 10); g.lineTo(10, -2); g.moveTo(-2, 2); g.lineTo(2, -2); g.moveTo(6, 10); g.lineTo(10, 6); g.stroke();
    return ctx.createPattern(tile, 'repeat');
  }
  const patterns = STYLES.map((_, s) => stripes(s));

  // First op of a lane whose end reaches t (ends ascend within a lane).
  function firstEndingAfter(list, t) {
    let lo = 0, hi = list.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (endOf(list[mid]) < t) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function firstStartingAfter(list, t) {
    let lo = 0, hi = list.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (startOf(list[mid]) <= t) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function visibleLanes() {
    return [Math.max(0, Math.floor(view.scroll / laneH)),
      Math.min(rows.length - 1, Math.floor((view.scroll + lanesH - 1) / laneH))];
  }

  let overview = null;   // ops starting per overview column, and the column's top style
  function buildOverview() {
    const cols = Math.max(1, Math.floor(plotW / COLUMN));
    const count = new Float32Array(cols), top = new Uint8Array(cols);
    for (let i = 0; i < N; i++) {
      if (!inView[i]) continue;
      const c = Math.min(cols - 1, Math.floor(startOf(i) / DOMAIN * cols));
      count[c]++;
      top[c] = Math.max(top[c], style[i]);
    }
    let max = 1;
    for (const v of count) max = Math.max(max, v);
    overview = { cols, count, top, max };
  }

  function draw() {
    dirty = false;
    const stats = { summaryLanes: 0, barLanes: 0, bars: 0, points: 0, arrows: 0, lanes: 0, labels: 0 };
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    const [firstLane, lastLane] = visibleLanes();
    const tFrom = view.left, tTo = view.left + plotW / view.scale;

    // Lane backgrounds.
    for (let l = firstLane; l <= lastLane; l++) {
      ctx.fillStyle = l % 2 ? '#f8fafc' : '#ffffff';
      ctx.fillRect(0, laneTop(l), width, laneH);
    }
    ctx.save();
    ctx.beginPath(); ctx.rect(GUTTER, AXIS_H, plotW + 14, lanesH); ctx.clip();
    drawGrid(tFrom, tTo);
    // The end of the history: crashed ops stay open past it.
    const xEnd = xOf(T);
    if (crashedCount && xEnd < GUTTER + plotW + 14) {
      ctx.fillStyle = 'rgba(148, 163, 184, 0.12)';
      ctx.fillRect(xEnd, AXIS_H, xOf(DOMAIN) - xEnd, lanesH);
    }

    // Ops: bars where they are wide enough, a density summary per lane elsewhere.
    const solid = STYLES.map(() => new Path2D());
    const open = STYLES.map(() => new Path2D());
    const summaries = [];
    let labelBars = [];
    for (let l = firstLane; l <= lastLane; l++) {
      const list = laneOps[l];
      const from = firstEndingAfter(list, tFrom), to = firstStartingAfter(list, tTo);
      if (to <= from) continue;
      const [y, h] = barBox(l);
      if ((to - from) * 4 > plotW) {
        stats.summaryLanes++;
        summaries.push(summarise(list, from, to, l));
        continue;
      }
      stats.barLanes++;
      for (let k = from; k < to; k++) {
        const i = list[k];
        // Back-to-back ops of a lane keep a visible gap; core ops stay big enough to see,
        // and the ops the sentence names bigger still.
        const x0 = xOf(startOf(i)), x1 = xOf(endOf(i));
        const full = x1 - x0;
        const least = style[i] > CONTEXT ? 9 : style[i] === CONTEXT ? 6 : 1.5;
        const w = Math.max(least, full > 4 ? full - Math.min(1.5, full * 0.12) : full);
        const path = isCrashed(i) ? open[style[i]] : solid[style[i]];
        if (w > 6 && h > 8) path.roundRect(x0, y, w, h, 3); else path.rect(x0, y, w, h);
        stats.bars++;
        if (w > 46 && h >= 14) labelBars.push(i);
      }
    }
    drawSummaries(summaries);
    for (let s = 0; s < STYLES.length; s++) {
      ctx.fillStyle = patterns[s]; ctx.fill(open[s]);
      ctx.strokeStyle = STYLES[s].stroke; ctx.lineWidth = 1; ctx.setLineDash([4, 3]); ctx.stroke(open[s]);
      ctx.setLineDash([]);
      ctx.fillStyle = STYLES[s].fill; ctx.fill(solid[s]);
      ctx.strokeStyle = STYLES[s].stroke; ctx.stroke(solid[s]);
    }
    if (labelBars.length <= 3000) drawBarLabels(labelBars);
    stats.arrows = drawFacts(tFrom, tTo);
    stats.points = drawOrder(tFrom, tTo);
    if (hovered >= 0) drawHovered(hovered);
    ctx.restore();

    stats.lanes = Math.max(0, lastLane - firstLane + 1);
    stats.labels = drawGutter(firstLane, lastLane);
    drawAxis(tFrom, tTo);
    drawOverview(tFrom, tTo);
    Object.assign(frameStats, stats);
    summaryNote.hidden = stats.summaryLanes === 0;
    if (firstFrame) {
      firstFrame = false;
      window.ariadneReport.readyMs = performance.now();
      document.body.dataset.ready = '1';
    }
  }

  function summarise(list, from, to, l) {
    const cols = Math.ceil((plotW + 14) / COLUMN);
    const count = new Uint16Array(cols), top = new Int8Array(cols).fill(-1), solidCover = new Uint8Array(cols);
    for (let k = from; k < to; k++) {
      const i = list[k];
      const c0 = Math.max(0, Math.floor((xOf(startOf(i)) - GUTTER) / COLUMN));
      const c1 = Math.min(cols - 1, Math.floor((xOf(endOf(i)) - GUTTER) / COLUMN));
      const s = style[i], crashed = isCrashed(i);
      for (let c = c0; c <= c1; c++) {
        if (count[c] < 65535) count[c]++;
        if (s > top[c]) top[c] = s;
        if (!crashed) solidCover[c] = 1;
      }
    }
    return { l, cols, count, top, solidCover };
  }

  function drawSummaries(summaries) {
    if (!summaries.length) return;
    let max = 1;
    for (const s of summaries) for (let c = 0; c < s.cols; c++) if (s.count[c] > max) max = s.count[c];
    const LEVELS = 6;
    const paths = new Map();   // style * 2 * LEVELS + open * LEVELS + level
    const pathFor = (key) => { let p = paths.get(key); if (!p) { p = new Path2D(); paths.set(key, p); } return p; };
    for (const s of summaries) {
      const [y, h] = barBox(s.l);
      let c = 0;
      while (c < s.cols) {
        if (!s.count[c]) { c++; continue; }
        const st = s.top[c], opened = s.solidCover[c] ? 0 : 1;
        const density = Math.log1p(s.count[c]) / Math.log1p(max);
        const level = st >= CONTEXT ? LEVELS - 1 : Math.min(LEVELS - 1, Math.floor(density * LEVELS));
        let end = c + 1;
        while (end < s.cols && s.count[end] && s.top[end] === st && (s.solidCover[end] ? 0 : 1) === opened) {
          const d = Math.log1p(s.count[end]) / Math.log1p(max);
          const lv = st >= CONTEXT ? LEVELS - 1 : Math.min(LEVELS - 1, Math.floor(d * LEVELS));
          if (lv !== level) break;
          end++;
        }
        const bh = st >= CONTEXT ? h : Math.max(2, Math.round(h * (0.35 + 0.65 * (level + 1) / LEVELS)));
        pathFor((st * 2 + opened) * LEVELS + level).rect(GUTTER + c * COLUMN, y + (h - bh) / 2, (end - c) * COLUMN, bh);
        c = end;
      }
    }
    for (const [key, path] of paths) {
      const level = key % LEVELS, opened = Math.floor(key / LEVELS) % 2, st = Math.floor(key / LEVELS / 2);
      ctx.globalAlpha = st >= CONTEXT ? 1 : 0.35 + 0.55 * (level + 1) / LEVELS;
      ctx.fillStyle = opened ? patterns[st] : STYLES[st].summary;
      ctx.fill(path);
    }
    ctx.globalAlpha = 1;
  }

  function drawBarLabels(list) {
    ctx.font = '11px ' + MONO;
    ctx.textBaseline = 'middle';
    for (const i of list) {
      const x0 = Math.max(GUTTER + 2, xOf(startOf(i))), x1 = Math.min(GUTTER + plotW, xOf(endOf(i)));
      const room = x1 - x0 - 10;
      if (room < 24) continue;
      let label = describe(i);
      const charW = 6.7;
      if (label.length * charW > room) label = label.slice(0, Math.max(1, Math.floor(room / charW) - 1)) + '\u2026';
      const [y, h] = barBox(rowOfOp(i));
      ctx.fillStyle = STYLES[style[i]].text;
      ctx.fillText(label, x0 + 6, y + h / 2 + 0.5);
    }
  }

  function drawFacts(tFrom, tTo) {
    if (!facts.length) return 0;
    let drawn = 0;
    ctx.strokeStyle = 'rgba(127, 29, 29, 0.85)';
    ctx.fillStyle = 'rgba(127, 29, 29, 0.9)';
    ctx.lineWidth = 1.6;
    for (const [b, a] of facts) {
      if (!inView[a] || !inView[b]) continue;
      const tb = endOf(b), ta = startOf(a);
      if (Math.max(tb, ta) < tFrom || Math.min(tb, ta) > tTo) continue;
      if (++drawn > 4000) break;
      const emphasise = hovered === a || hovered === b;
      const x0 = xOf(tb), x1 = xOf(ta);
      const y0 = laneTop(rowOfOp(b)) + laneH / 2, y1 = laneTop(rowOfOp(a)) + laneH / 2;
      const bend = Math.max(18, Math.min(80, Math.abs(x1 - x0) / 2));
      ctx.lineWidth = emphasise ? 2.6 : 1.6;
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.bezierCurveTo(x0 + bend, y0, x1 - bend, y1, x1, y1);
      ctx.stroke();
      // The head points along the curve's last tangent, which is horizontal.
      ctx.beginPath();
      ctx.moveTo(x1, y1); ctx.lineTo(x1 - 8, y1 - 4.5); ctx.lineTo(x1 - 8, y1 + 4.5); ctx.closePath(); ctx.fill();
      ctx.beginPath(); ctx.arc(x0, y0, 2.6, 0, 2 * Math.PI); ctx.fill();
    }
    return drawn;
  }

  function firstPointAfter(t) {
    let lo = 0, hi = point.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (point[mid] < t) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function drawOrder(tFrom, tTo) {
    if (!order.length) return 0;
    const margin = 40 / view.scale;
    const from = Math.max(0, firstPointAfter(tFrom - margin) - 1);
    const to = Math.min(order.length, firstPointAfter(tTo + margin) + 1);
    if (to - from > 2500) return 0;   // too dense to read: the lanes are summarised anyway
    const y = (i) => laneTop(rowOfOp(i)) + laneH / 2;
    // Consecutive points of one partition are joined (joined: -1 all, -2 none, or the
    // partition). Keyed models order each key alone: only the hovered op's key is
    // joined, or the picture is a tangle. A violation's prefix is joined only while one
    // of its ops is hovered: the core beneath it is what the page is about.
    let joined = !keyed || selectedKey >= 0 ? -1 : hovered >= 0 ? partition[hovered] : -2;
    if (violation && !(hovered >= 0 && rank[hovered] >= 0)) joined = -2;
    ctx.strokeStyle = joined >= 0 ? 'rgba(30, 58, 138, 0.8)' : 'rgba(30, 58, 138, 0.45)';
    ctx.lineWidth = joined >= 0 ? 1.6 : 1.2;
    ctx.beginPath();
    const last = new Map();
    for (let k = from; k < to; k++) {
      const i = order[k];
      const p = partition ? partition[i] : 0;
      if (!inView[i] || (joined !== -1 && p !== joined)) continue;
      const x = xOf(point[k]);
      if (last.has(p)) { const [px, py] = last.get(p); ctx.moveTo(px, py); ctx.lineTo(x, y(i)); }
      last.set(p, [x, y(i)]);
    }
    ctx.stroke();
    const radius = laneH >= 16 && !violation ? 4 : 2.5;
    const labelAll = to - from <= 30 && laneH >= 18;
    ctx.font = '600 10px ' + SANS;
    ctx.textBaseline = 'bottom';
    ctx.textAlign = 'center';
    for (let k = from; k < to; k++) {
      const i = order[k];
      if (!inView[i]) continue;
      // A point would hide the colour of a narrow op of the violation: zoom in for it.
      if (violation && style[i] >= CONTEXT && xOf(endOf(i)) - xOf(startOf(i)) < 16 && i !== hovered) continue;
      const x = xOf(point[k]);
      ctx.beginPath(); ctx.arc(x, y(i), radius, 0, 2 * Math.PI);
      ctx.fillStyle = '#1e3a8a'; ctx.fill();
      ctx.strokeStyle = '#ffffff'; ctx.lineWidth = 1.5; ctx.stroke();
      if (labelAll || i === hovered) {
        const label = String(k + 1);
        ctx.lineWidth = 3; ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)'; ctx.lineJoin = 'round';
        ctx.strokeText(label, x, y(i) - radius - 2);
        ctx.fillStyle = '#1e3a8a';
        ctx.fillText(label, x, y(i) - radius - 2);
      }
    }
    ctx.textAlign = 'start';
    return to - from;
  }

  function drawHovered(i) {
    if (!inView[i]) return;
    const [y, h] = barBox(rowOfOp(i));
    const x0 = xOf(startOf(i)), x1 = xOf(endOf(i));
    ctx.strokeStyle = '#0f172a';
    ctx.lineWidth = 2;
    ctx.beginPath(); ctx.roundRect(x0 - 1.5, y - 1.5, Math.max(3, x1 - x0) + 3, h + 3, 4); ctx.stroke();
  }

  function niceStep(raw) {
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
    return 10 * p;
  }
  function drawGrid(tFrom, tTo) {
    const step = niceStep(90 / view.scale);
    ctx.strokeStyle = '#eef2f7';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let k = Math.max(0, Math.floor(tFrom / step) * step); k <= Math.min(T - 1, tTo); k += step) {
      const x = Math.round(xOf(k + 0.5)) + 0.5;
      ctx.moveTo(x, AXIS_H); ctx.lineTo(x, AXIS_H + lanesH);
    }
    ctx.stroke();
  }
  function drawAxis(tFrom, tTo) {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, AXIS_H);
    ctx.strokeStyle = '#e2e8f0';
    ctx.beginPath(); ctx.moveTo(0, AXIS_H - 0.5); ctx.lineTo(width, AXIS_H - 0.5); ctx.stroke();
    ctx.font = '11px ' + SANS;
    ctx.fillStyle = '#64748b';
    ctx.textBaseline = 'middle';
    ctx.fillText('event', 12, AXIS_H / 2);
    const step = niceStep(90 / view.scale);
    ctx.textAlign = 'center';
    ctx.strokeStyle = '#94a3b8';
    let lastRight = -Infinity;
    for (let k = Math.max(0, Math.floor(tFrom / step) * step); k <= Math.min(T - 1, tTo); k += step) {
      const x = xOf(k + 0.5);
      if (x < GUTTER + 10 || x > width - 20) continue;
      ctx.beginPath(); ctx.moveTo(x, AXIS_H - 6); ctx.lineTo(x, AXIS_H); ctx.stroke();
      const label = fmt(times[k]), half = ctx.measureText(label).width / 2;
      if (x - half < lastRight + 8) continue;
      ctx.fillStyle = '#475569';
      ctx.fillText(label, x, AXIS_H / 2 - 2);
      lastRight = x + half;
    }
    const xEnd = xOf(T + 0.5);
    if (crashedCount && xEnd > lastRight + 24 && xEnd < width - 10) {
      ctx.fillStyle = '#94a3b8'; ctx.fillText('end', xEnd, AXIS_H / 2 - 2);
    }
    ctx.textAlign = 'start';
  }
  function drawGutter(firstLane, lastLane) {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, AXIS_H, GUTTER, lanesH);
    ctx.strokeStyle = '#e2e8f0';
    ctx.beginPath(); ctx.moveTo(GUTTER - 0.5, AXIS_H); ctx.lineTo(GUTTER - 0.5, AXIS_H + lanesH); ctx.stroke();
    // Every lane is labelled (lanes are never lower than MIN_LANE): "process 7" where
    // there is room, "p7" where lanes are low or the word does not fit.
    ctx.font = (laneH >= 20 ? '12px ' : '11px ') + SANS;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    let labels = 0;
    for (let r = firstLane; r <= lastLane; r++) {
      const process = processes[rows[r]];
      let label = (laneH >= 20 ? 'process ' : 'p') + process;
      if (ctx.measureText(label).width > GUTTER - 16) label = 'p' + process;
      ctx.fillStyle = '#334155';
      ctx.fillText(label, GUTTER - 10, laneTop(r) + laneH / 2);
      labels++;
    }
    ctx.textAlign = 'start';
    const R = rows.length;
    if (R * laneH > lanesH) {   // a scroll bar for the lanes
      const h = Math.max(20, lanesH * lanesH / (R * laneH));
      const y = AXIS_H + (lanesH - h) * view.scroll / (R * laneH - lanesH);
      ctx.fillStyle = 'rgba(100, 116, 139, 0.45)';
      ctx.beginPath(); ctx.roundRect(width - 7, y, 4, h, 2); ctx.fill();
    }
    return labels;
  }
  function drawOverview(tFrom, tTo) {
    if (!overview) buildOverview();
    const top = AXIS_H + lanesH, y = top + 7, h = OVERVIEW_H - 12;
    ctx.fillStyle = '#f8fafc';
    ctx.fillRect(0, top, width, OVERVIEW_H);
    ctx.strokeStyle = '#e2e8f0';
    ctx.beginPath(); ctx.moveTo(0, top + 0.5); ctx.lineTo(width, top + 0.5); ctx.stroke();
    ctx.font = '11px ' + SANS;
    ctx.fillStyle = '#64748b';
    ctx.textBaseline = 'middle';
    ctx.fillText('overview', 12, y + h / 2);
    const o = overview, w = plotW / o.cols;
    for (let c = 0; c < o.cols; c++) {
      if (!o.count[c]) continue;
      const bh = Math.max(2, h * Math.sqrt(o.count[c] / o.max));
      ctx.fillStyle = o.top[c] >= CONTEXT ? STYLES[o.top[c]].fill : '#cbd5e1';
      ctx.fillRect(GUTTER + c * w, y + h - bh, Math.max(1, w), bh);
    }
    const vx = GUTTER + tFrom / DOMAIN * plotW, vw = Math.max(3, (tTo - tFrom) / DOMAIN * plotW);
    ctx.fillStyle = 'rgba(37, 99, 235, 0.10)';
    ctx.fillRect(vx, top + 3, vw, OVERVIEW_H - 6);
    ctx.strokeStyle = 'rgba(37, 99, 235, 0.8)';
    ctx.lineWidth = 1;
    ctx.strokeRect(vx + 0.5, top + 3.5, vw - 1, OVERVIEW_H - 7);
  }

  // ---- Hover cards ----
  function opAt(px, py) {
    if (px < GUTTER || py < AXIS_H || py >= AXIS_H + lanesH) return -1;
    const l = Math.floor((py - AXIS_H + view.scroll) / laneH);
    if (l < 0 || l >= rows.length) return -1;
    const t = view.left + (px - GUTTER) / view.scale;
    const tolerance = 4 / view.scale;
    const list = laneOps[l];
    const k = firstEndingAfter(list, t - tolerance);
    let best = -1, bestDistance = Infinity;
    for (let j = Math.max(0, k - 1); j < Math.min(list.length, k + 2); j++) {
      const i = list[j];
      const d = t < startOf(i) ? startOf(i) - t : t > endOf(i) ? t - endOf(i) : 0;
      if (d <= tolerance && d < bestDistance) { best = i; bestDistance = d; }
    }
    return best;
  }
  function row(table, label, value, mono) {
    table.append(el('tr', {}, el('td', { text: label }), el('td', { class: mono ? 'mono' : '', text: value })));
  }
  function showTooltip(i, px, py) {
    tooltip.replaceChildren();
    const head = el('div', { class: 'head' }, el('strong', { text: 'op ' + ids[i] }), el('span', { text: processName(i) }));
    if (i === failing) head.append(el('span', { class: 'chip failing', text: 'failing op' }));
    if (inCore[i]) head.append(el('span', { class: 'chip core', text: 'core' }));
    if (roleOf[i] >= 0 && roleOf[i] !== CONTEXT_ROLE && !(roleOf[i] === REFUSED_ROLE && i === failing)) {
      head.append(el('span', { class: 'chip role-' + ROLES[roleOf[i]], text: ROLES[roleOf[i]] }));
    }
    if (rank[i] >= 0) head.append(el('span', { class: 'chip order', text: '#' + fmt(rank[i] + 1) + ' of ' + fmt(order.length) }));
    if (isCrashed(i)) head.append(el('span', { class: 'chip crashed', text: 'crashed' }));
    tooltip.append(head, el('div', { class: 'desc', text: describe(i) }));
    const table = el('table');
    const st = status[i] === 'c' ? 'crashed: may take effect at any point after its invocation, or never'
      : status[i] === 'f' ? 'failed (an observation the model must explain)' : 'ok';
    row(table, 'status', st);
    row(table, 'invoked', 'event ' + fmt(times[call[i]]));
    row(table, 'completed', ret[i] < 0 ? 'never (open to the end)' : 'event ' + fmt(times[ret[i]]));
    if (keyed) row(table, 'key', partitionKeys[partition[i]], true);
    if (roleOf[i] >= 0) row(table, 'part', ROLE_WORDS[roleOf[i]]);
    if (rank[i] >= 0) {
      row(table, violation ? 'prefix order' : 'order', '#' + fmt(rank[i] + 1) + ' of ' + fmt(order.length));
    } else if (verdict === 'linearizable' && isCrashed(i)) {
      row(table, 'order', 'took no effect');
    }
    if (stateAfter && rank[i] >= 0) {
      row(table, 'state before', stateBefore[i] >= 0 ? strings[stateBefore[i]] : 'unknown', true);
      row(table, 'state after', stateAfter[i] >= 0 ? strings[stateAfter[i]] : 'unknown', true);
    } else if (violation && rank[i] < 0) {
      // The states are known along the linearizable prefix only, which is one key's.
      const prefixKey = keyed && prefix.length ? partition[prefix[0]] : -1;
      row(table, 'state', !prefix.length ? 'unknown: no linearizable prefix was found'
        : prefixKey >= 0 && partition[i] !== prefixKey ? 'not in the linearizable prefix (which is of key ' +
          partitionKeys[prefixKey] + ' only)' : 'not in the linearizable prefix');
      // Where the refused op would have to take effect: one state the prefix can end in.
      const end = orderEnd.get(partition ? partition[i] : 0);
      if (i === failing && end !== undefined && end >= 0) row(table, 'prefix ends in', strings[end], true);
    }
    const before = facts.filter(([, a]) => a === i).map(([b]) => ids[b]);
    const after = facts.filter(([b]) => b === i).map(([, a]) => ids[a]);
    if (before.length) row(table, 'real time: after', 'op ' + before.slice(0, 8).join(', op ') + (before.length > 8 ? ', \u2026' : ''));
    if (after.length) row(table, 'real time: before', 'op ' + after.slice(0, 8).join(', op ') + (after.length > 8 ? ', \u2026' : ''));
    tooltip.append(table);
    tooltip.dataset.op = String(ids[i]);
    tooltip.hidden = false;
    // Viewport coordinates (the card is position: fixed), kept inside the window.
    const box = canvas.getBoundingClientRect();
    const cx = box.left + px, cy = box.top + py;
    const tw = tooltip.offsetWidth, th = tooltip.offsetHeight;
    let left = cx + 16, top = cy + 14;
    if (left + tw > window.innerWidth - 6) left = Math.max(6, cx - tw - 16);
    if (top + th > window.innerHeight - 6) top = Math.max(6, cy - th - 14);
    tooltip.style.left = left + 'px';
    tooltip.style.top = top + 'px';
  }
  function hideTooltip() { tooltip.hidden = true; delete tooltip.dataset.op; }

  // ---- Interaction ----
  let drag = null;
  const local = (event) => { const r = canvas.getBoundingClientRect(); return [event.clientX - r.left, event.clientY - r.top]; };
  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    const [px] = local(event);
    if (event.shiftKey) { view.scroll += event.deltaY; clampView(); dirty = true; return; }
    if (Math.abs(event.deltaX) > Math.abs(event.deltaY)) { view.left += event.deltaX / view.scale; clampView(); dirty = true; return; }
    zoomAt(Math.max(GUTTER, px), Math.exp(-event.deltaY * 0.0018));
  }, { passive: false });
  canvas.addEventListener('pointerdown', (event) => {
    const [px, py] = local(event);
    canvas.setPointerCapture(event.pointerId);
    if (py >= AXIS_H + lanesH) {   // the overview: jump there, then drag the window
      drag = { overview: true };
      centreOn((px - GUTTER) / plotW * DOMAIN);
      return;
    }
    drag = { x: px, y: py, left: view.left, scroll: view.scroll, moved: false };
  });
  canvas.addEventListener('pointermove', (event) => {
    const [px, py] = local(event);
    if (drag && drag.overview) { centreOn((px - GUTTER) / plotW * DOMAIN); return; }
    if (drag) {
      if (Math.abs(px - drag.x) + Math.abs(py - drag.y) > 3) { drag.moved = true; canvas.classList.add('dragging'); }
      if (drag.moved) {
        view.left = drag.left - (px - drag.x) / view.scale;
        view.scroll = drag.scroll - (py - drag.y);
        clampView(); dirty = true; hideTooltip(); hovered = -1; pinned = false;
        return;
      }
    }
    if (pinned) return;
    const i = opAt(px, py);
    if (i !== hovered) { hovered = i; dirty = true; }
    if (i >= 0) showTooltip(i, px, py); else hideTooltip();
  });
  canvas.addEventListener('pointerup', (event) => {
    const [px, py] = local(event);
    const wasClick = drag && !drag.overview && !drag.moved;
    drag = null;
    canvas.classList.remove('dragging');
    if (wasClick) {
      const i = opAt(px, py);
      pinned = i >= 0 && !(pinned && hovered === i);
      hovered = i; dirty = true;
      if (i >= 0) showTooltip(i, px, py); else hideTooltip();
    }
  });
  // The card is placed in viewport coordinates: on a page scroll a pinned card follows
  // its op, a hover card goes.
  window.addEventListener('scroll', () => {
    if (tooltip.hidden) return;
    const spot = pinned && hovered >= 0 ? locate(ids[hovered]) : null;
    if (spot) {
      const r = canvas.getBoundingClientRect();
      showTooltip(hovered, spot.x - r.left, spot.y - r.top);
    } else {
      pinned = false; hovered = -1; hideTooltip(); dirty = true;
    }
  }, { passive: true });
  canvas.addEventListener('pointerleave', () => { if (!pinned && !drag) { hovered = -1; hideTooltip(); dirty = true; } });
  function centreOn(t) { view.left = t - plotW / view.scale / 2; clampView(); dirty = true; }
  $('zoom-in').addEventListener('click', () => zoomAt(GUTTER + plotW / 2, 2));
  $('zoom-out').addEventListener('click', () => zoomAt(GUTTER + plotW / 2, 0.5));
  $('zoom-fit').addEventListener('click', fit);
  $('find-op').addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    const id = Number(event.target.value.trim());
    event.target.style.borderColor = Number.isInteger(id) && indexOfId(id) >= 0 && focusOp(id, true) ? '' : '#dc2626';
  });
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const step = plotW / view.scale / 5;
    if (event.key === '+' || event.key === '=') zoomAt(GUTTER + plotW / 2, 1.5);
    else if (event.key === '-') zoomAt(GUTTER + plotW / 2, 1 / 1.5);
    else if (event.key === '0') fit();
    else if (event.key === 'ArrowLeft') { view.left -= step; clampView(); dirty = true; }
    else if (event.key === 'ArrowRight') { view.left += step; clampView(); dirty = true; }
    else if (event.key === 'Escape') { pinned = false; hovered = -1; hideTooltip(); dirty = true; }
  });

  // Zooms and scrolls so op `id` is drawn as a bar of readable width; returns the
  // viewport coordinates of a point on it, or null when there is no such op.
  function focusOp(id, pin) {
    const i = indexOfId(id);
    if (i < 0) return null;
    if (!inView[i]) chooseKey(partition[i]);
    const span = Math.min(endOf(i), T + 0.5) - startOf(i);
    view.scale = Math.max(view.scale, Math.min(MAX_SCALE, 80 / Math.max(span, 0.5)));
    clampView();
    centreOn(startOf(i) + span / 2);
    const top = rowOfOp(i) * laneH;
    if (top < view.scroll || top + laneH > view.scroll + lanesH) view.scroll = top - lanesH / 2;
    clampView();
    if (pin) canvas.scrollIntoView({ block: 'nearest' });
    draw();
    const point = locate(id);
    if (pin && point) {
      const r = canvas.getBoundingClientRect();
      hovered = i; pinned = true; dirty = true;
      showTooltip(i, point.x - r.left, point.y - r.top);
    }
    return point;
  }
  // Viewport coordinates of the visible middle of op `id`'s bar, or null.
  function locate(id) {
    const i = indexOfId(id);
    if (i < 0 || !inView[i]) return null;
    const x0 = Math.max(GUTTER + 1, xOf(startOf(i))), x1 = Math.min(GUTTER + plotW - 1, xOf(endOf(i)));
    const [y, h] = barBox(rowOfOp(i));
    if (x1 < x0 || y < AXIS_H || y + h > AXIS_H + lanesH) return null;
    const r = canvas.getBoundingClientRect();
    return { x: r.left + (x0 + x1) / 2, y: r.top + y + h / 2 };
  }

  window.ariadneReport = {
    verdict,
    operations: N,
    lanes: L,
    coreIds: Array.from(core, (i) => ids[i]),
    highlighted: Array.from(style.keys()).filter((i) => style[i] >= CONTEXT).map((i) => ids[i]),
    failingId: failing >= 0 ? ids[failing] : null,
    roles: Object.fromEntries(data.roles.op.map((i, k) => [ids[i], data.roles.role[k]])),
    orderIds: Array.from(order, (i) => ids[i]),
    facts: facts.map(([b, a]) => [ids[b], ids[a]]),
    frame: frameStats,
    parsedMs,
    readyMs: null,
    focus: (id) => focusOp(id, false),
    locate,
    pinnedId: () => (pinned && hovered >= 0 ? ids[hovered] : null),
    selectedKey: () => (selectedKey < 0 ? null : partitionKeys[selectedKey]),
    keyOpIds: (key) => Array.from(ids).filter((_, i) => partitionKeys[partition[i]] === key),
    fit: () => { fit(); draw(); },
  };

  // ---- The key list: the timeline shows one key's ops, or every key's ----
  // Buttons for a few keys, a drop-down list for many; the failing key comes first
  // (report_data.cpp) and is shown first.
  const MAX_KEY_BUTTONS = 60;
  const keyControls = [];
  function chooseKey(key) {
    selectOps(key);
    for (const [k, node] of keyControls) {
      if (node.tagName === 'SELECT') node.value = String(key); else node.setAttribute('aria-pressed', String(k === key));
    }
    hovered = -1; pinned = false; hideTooltip();
    countTimeline();
    layout();
    fit();
  }
  if (keyed) {
    const K = partitionKeys.length;
    const counts = new Int32Array(K);
    for (let i = 0; i < N; i++) counts[partition[i]]++;
    const verdicts = data.partitionVerdicts;
    const MARKS = { 'not-linearizable': ['\u2717', 'bad'], 'linearizable': ['\u2713', 'good'], 'unknown': ['?', 'unknown'] };
    const verdictText = (k) => verdicts[k] ? verdicts[k].replace('-', ' ') : 'verdict not reported alone';
    const box = $('keys');
    box.hidden = false;
    box.append(el('span', { class: 'keys-label', text: fmt(K) + ' keys' }));
    if (K <= MAX_KEY_BUTTONS) {
      const button = (k, ...content) => {
        const node = el('button', { class: 'key', type: 'button', 'aria-pressed': 'false', 'data-key': k < 0 ? '' : partitionKeys[k] },
          ...content);
        node.addEventListener('click', () => chooseKey(k));
        keyControls.push([k, node]);
        box.append(node);
        return node;
      };
      button(-1, 'All keys', el('span', { class: 'n', text: fmt(N) }));
      for (let k = 0; k < K; k++) {
        const [mark, kind] = MARKS[verdicts[k]] || ['\u00b7', 'unreported'];
        button(k, el('span', { class: 'mark ' + kind, text: mark }), el('span', { class: 'name', text: partitionKeys[k] }),
          el('span', { class: 'n', text: fmt(counts[k]) })).title = 'key ' + partitionKeys[k] + ': ' + verdictText(k) +
          ', ' + fmt(counts[k]) + (counts[k] === 1 ? ' op' : ' ops');
      }
    } else {
      const select = el('select', { 'aria-label': 'Key' }, el('option', { value: '-1', text: 'All keys (' + fmt(N) + ' ops)' }));
      for (let k = 0; k < K; k++) {
        select.append(el('option', { value: String(k), text: partitionKeys[k] + ': ' + verdictText(k) + ', ' + fmt(counts[k]) + ' ops' }));
      }
      select.addEventListener('change', () => chooseKey(Number(select.value)));
      keyControls.push([null, select]);
      box.append(select);
    }
  }
  // A violation of one key opens on that key: the others only hide it.
  const firstKey = keyed && violation && data.partitionVerdicts[0] === 'not-linearizable' ? 0 : -1;

  new ResizeObserver(() => { layout(); }).observe(canvas.parentElement);
  chooseKey(firstKey);
  draw();
  (function loop() { if (dirty) draw(); requestAnimationFrame(loop); })();
})();

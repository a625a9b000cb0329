// The report's markup and style. Only system fonts: the page must render the same
// offline. Colours: blue for a linearizable history's ops and order, red and orange
// for a violation's core and failing op, slate grey for what is dimmed.
#include "report/page_template.hpp"

namespace ariadne::report {

std::string_view page_style() {
  return R"ariadne_css(
:root {
  --ink: #0f172a; --muted: #64748b; --faint: #94a3b8; --line: #e2e8f0; --bg: #f5f7fa; --card: #ffffff;
  --blue: #2563eb; --blue-soft: #dbeafe; --red: #dc2626; --red-soft: #fee2e2; --orange: #ea580c;
  --green: #15803d; --green-soft: #dcfce7; --amber: #b45309; --amber-soft: #fef3c7;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif;
  --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.45 var(--sans); }
main { max-width: 1680px; margin: 0 auto; padding: 18px 22px 28px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px;
        box-shadow: 0 1px 2px rgba(15, 23, 42, .05); padding: 16px 18px; margin-bottom: 16px; }
header.card { padding: 18px 20px 14px; }
.title-row { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }
h1 { font-size: 19px; font-weight: 650; margin: 0; word-break: break-all; }
h2 { font-size: 15px; font-weight: 650; margin: 0 0 10px; }
h2 .count { color: var(--muted); font-weight: 500; margin-left: 6px; }
.badge { display: inline-flex; align-items: center; gap: 6px; border-radius: 999px; padding: 3px 11px;
         font-weight: 650; font-size: 13px; letter-spacing: .01em; white-space: nowrap; }
.badge::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: currentColor; }
.badge.linearizable { color: var(--green); background: var(--green-soft); }
.badge.not-linearizable { color: var(--red); background: var(--red-soft); }
.badge.unknown { color: var(--amber); background: var(--amber-soft); }
.brand { margin-left: auto; color: var(--faint); font-size: 12px; letter-spacing: .04em; }
dl.meta { display: flex; flex-wrap: wrap; gap: 6px 26px; margin: 12px 0 0; }
dl.meta div { display: flex; flex-direction: column; }
dl.meta dt { color: var(--muted); font-size: 11px; text-transform: uppercase; letter-spacing: .06em; }
#keys { margin: 10px 0 0; font-size: 13px; }
#keys ol { max-height: 14em; overflow: auto; margin: 4px 0 0; padding-left: 2.4em; }
dl.meta dd { margin: 0; font-weight: 550; font-family: var(--mono); font-size: 13px; }
.explanation { margin-top: 14px; border-left: 4px solid var(--faint); background: #f8fafc; border-radius: 0 8px 8px 0;
               padding: 10px 14px; white-space: pre-wrap; font-size: 13.5px; overflow-wrap: anywhere; }
.explanation.not-linearizable { border-color: var(--red); background: #fff7f7; }
.explanation.linearizable { border-color: var(--green); background: #f6fdf8; }
.explanation.unknown { border-color: var(--amber); background: #fffbeb; }
.explanation.collapsed { max-height: 15.5em; overflow: hidden;
                         -webkit-mask-image: linear-gradient(180deg, #000 75%, transparent); }
button, input { font: inherit; }
button.link { border: 0; background: none; color: var(--blue); cursor: pointer; padding: 4px 0; font-size: 13px; }
.toolbar { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; margin-bottom: 10px; }
.toolbar h2 { margin: 0 8px 0 0; }
.toolbar button.tool { border: 1px solid var(--line); background: #fff; border-radius: 7px; padding: 3px 10px;
                       cursor: pointer; color: var(--ink); font-size: 13px; }
.toolbar button.tool:hover { background: #f1f5f9; }
.toolbar input { border: 1px solid var(--line); border-radius: 7px; padding: 3px 8px; width: 120px; font-size: 13px; }
.toolbar .hint { color: var(--muted); font-size: 12px; margin-left: auto; }
.timeline { position: relative; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.timeline canvas { display: block; width: 100%; cursor: grab; touch-action: none; }
.timeline canvas.dragging { cursor: grabbing; }
.tooltip { position: fixed; z-index: 5; pointer-events: none; min-width: 220px; max-width: 420px;
           background: rgba(15, 23, 42, .96); color: #f8fafc; border-radius: 9px; padding: 10px 12px;
           box-shadow: 0 8px 24px rgba(15, 23, 42, .25); font-size: 12.5px; }
.tooltip[hidden] { display: none; }
.tooltip .head { display: flex; align-items: center; gap: 8px; margin-bottom: 6px; }
.tooltip .head strong { font-size: 13.5px; }
.tooltip .desc { font-family: var(--mono); font-size: 13px; margin-bottom: 8px; color: #fff; overflow-wrap: anywhere; }
.tooltip table { border-collapse: collapse; width: 100%; }
.tooltip td { padding: 1.5px 0; vertical-align: top; }
.tooltip td:first-child { color: #94a3b8; padding-right: 12px; white-space: nowrap; }
.tooltip td.mono { font-family: var(--mono); overflow-wrap: anywhere; }
.chip { display: inline-block; border-radius: 999px; padding: 0 7px; font-size: 11px; font-weight: 650; }
.chip.core { background: #ef4444; color: #fff; }
.chip.failing { background: #f97316; color: #fff; }
.chip.order { background: #3b82f6; color: #fff; }
.chip.crashed { background: #475569; color: #e2e8f0; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 20px; margin-top: 10px; color: #334155; font-size: 12.5px; }
.legend span.item { display: inline-flex; align-items: center; gap: 7px; }
.legend span.item[hidden] { display: none; }
.swatch { display: inline-block; width: 26px; height: 11px; border-radius: 3px; border: 1px solid transparent; }
.swatch.striped { background-image: repeating-linear-gradient(135deg, rgba(255,255,255,.75) 0 2px, transparent 2px 5px); }
.swatch.dot { width: 11px; height: 11px; border-radius: 50%; background: #1e3a8a; border: 2px solid #fff;
              box-shadow: 0 0 0 1px #1e3a8a; }
.swatch.density { background: linear-gradient(90deg, rgba(37,99,235,.2), rgba(37,99,235,.95)); }
table.ops { border-collapse: collapse; width: 100%; font-size: 13px; }
table.ops th { text-align: left; font-weight: 600; color: var(--muted); font-size: 11.5px; text-transform: uppercase;
               letter-spacing: .05em; border-bottom: 1px solid var(--line); padding: 6px 10px; }
table.ops td { border-bottom: 1px solid #f1f5f9; padding: 5px 10px; }
table.ops td.mono { font-family: var(--mono); }
table.ops tbody tr { cursor: pointer; }
table.ops tbody tr:hover { background: #f8fafc; }
table.ops tr.failing td:first-child { box-shadow: inset 3px 0 0 #f97316; }
.scroll { max-height: 420px; overflow: auto; }
.note { color: var(--muted); font-size: 12.5px; margin: 8px 0 0; }
ul.facts { margin: 10px 0 0; padding-left: 18px; font-size: 13px; }
ul.facts li { margin: 2px 0; }
footer { color: var(--faint); font-size: 12px; text-align: center; padding: 4px 0 12px; }
)ariadne_css";
}

std::string_view page_markup() {
  return R"ariadne_html(
<main>
  <header class="card" id="summary">
    <div class="title-row">
      <span class="badge" id="verdict"></span>
      <h1 id="file"></h1>
      <span class="brand">ariadne report</span>
    </div>
    <dl class="meta" id="meta"></dl>
    <div class="explanation" id="explanation"></div>
    <button class="link" id="explanation-toggle" hidden>Show the whole explanation</button>
  </header>
  <section class="card" id="timeline-card">
    <div class="toolbar">
      <h2>Timeline<span class="count" id="timeline-count"></span></h2>
      <button class="tool" id="zoom-in" title="Zoom in (+)">+</button>
      <button class="tool" id="zoom-out" title="Zoom out (&minus;)">&minus;</button>
      <button class="tool" id="zoom-fit" title="Show everything (0)">Fit</button>
      <input id="find-op" type="search" placeholder="Find op id" inputmode="numeric" aria-label="Find op id">
      <span class="hint">Wheel: zoom &middot; drag: pan &middot; shift+wheel: scroll lanes &middot; hover an op for details</span>
    </div>
    <div class="timeline" id="timeline">
      <canvas id="canvas" aria-label="Operations per process over time"></canvas>
      <div class="tooltip" id="tooltip" role="tooltip" hidden></div>
    </div>
    <div class="legend" id="legend"></div>
  </section>
  <section class="card" id="core-card" hidden>
    <h2>Core<span class="count" id="core-count"></span></h2>
    <div class="scroll"><table class="ops" id="core-table"></table></div>
    <p class="note" id="core-note"></p>
    <ul class="facts" id="core-facts"></ul>
  </section>
  <section class="card" id="order-card" hidden>
    <h2 id="order-title">Linearization<span class="count" id="order-count"></span></h2>
    <div class="scroll"><table class="ops" id="order-table"></table></div>
    <p class="note" id="order-note"></p>
  </section>
  <footer>Written by ariadne check --html. Op ids are positions of invocation events in the history file.</footer>
</main>
)ariadne_html";
}

}  // namespace ariadne::report

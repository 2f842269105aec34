"""The wiki's one stylesheet, inline in every page and allowed by its hash in the CSP."""

from __future__ import annotations

import base64
import hashlib

__all__ = ["CSS", "CSS_HASH"]

CSS = """
:root{--ink:#1d232b;--muted:#5d6875;--line:#dde2e8;--bg:#f6f7f9;--card:#fff;
--accent:#1f5fa8;--accent-soft:#e8f0fa;--warn:#9a3412}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:var(--ink);background:var(--bg)}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
header.top{display:flex;flex-wrap:wrap;gap:.75rem 1.5rem;align-items:center;
padding:.7rem 1.5rem;background:var(--card);border-bottom:1px solid var(--line)}
header.top .brand{font-weight:700;font-size:1.1rem;color:var(--ink)}
header.top form.search{display:flex;gap:.4rem;flex:1;max-width:32rem}
input[type=search],input[type=password]{flex:1;min-width:8rem;padding:.4rem .6rem;
border:1px solid var(--line);border-radius:6px;font:inherit}
button{padding:.4rem .9rem;border:1px solid var(--accent);border-radius:6px;
background:var(--accent);color:#fff;font:inherit;cursor:pointer}
button.plain{background:none;color:var(--accent)}
.who{margin-left:auto;color:var(--muted);font-size:.9rem;display:flex;gap:.6rem;
align-items:center}
.who form{margin:0}
.layout{display:grid;grid-template-columns:minmax(0,1fr) 16rem;gap:1.5rem;
max-width:72rem;margin:1.5rem auto;padding:0 1.5rem}
.single{max-width:56rem;margin:1.5rem auto;padding:0 1.5rem}
@media (max-width:50rem){.layout{grid-template-columns:1fr}}
h1{font-size:1.5rem;margin:.2rem 0 .8rem;word-break:break-all}
h2{font-size:1.05rem;margin:1.4rem 0 .6rem;color:var(--muted)}
nav.crumbs{font-size:.9rem;color:var(--muted)}
nav.crumbs ol{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap}
nav.crumbs li+li::before{content:"/";margin:0 .35rem;color:var(--line)}
dl.meta{display:grid;grid-template-columns:repeat(auto-fit,minmax(8rem,1fr));
gap:.5rem;margin:0 0 1rem}
dl.meta div{background:var(--card);border:1px solid var(--line);border-radius:8px;
padding:.5rem .75rem}
dl.meta dt{font-size:.8rem;color:var(--muted)}dl.meta dd{margin:0;font-weight:600}
ol.facts{list-style:none;margin:0;padding:0}
ol.facts>li{background:var(--card);border:1px solid var(--line);border-radius:8px;
padding:.75rem 1rem;margin:0 0 .75rem}
.content{white-space:pre-wrap;overflow-wrap:anywhere;margin:0 0 .5rem}
.facts a.link{background:var(--accent-soft);border-radius:4px;padding:0 .2rem}
.info{display:flex;flex-wrap:wrap;gap:.3rem .9rem;align-items:center;
font-size:.85rem;color:var(--muted)}
meter{width:5rem;height:.8rem}
.tag{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.8rem;
background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:0 .3rem}
.id{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.8rem}
aside{background:var(--card);border:1px solid var(--line);border-radius:8px;
padding:.75rem 1rem;align-self:start}
aside h2{margin-top:0}aside .note{font-size:.8rem;margin:.6rem 0 0}
aside ul{list-style:none;margin:0;padding:0}aside li{padding:.2rem 0;
display:flex;justify-content:space-between;gap:.5rem}
.count{color:var(--muted);font-size:.85rem;white-space:nowrap}
ul.tree,ul.tree ul{list-style:none;margin:0;padding:0 0 0 1.1rem}
ul.tree{padding:0;background:var(--card);border:1px solid var(--line);
border-radius:8px;padding:.75rem 1rem}
ul.tree ul{border-left:1px dashed var(--line);margin-left:.3rem}
ul.tree li{padding:.1rem 0}
.star{color:var(--warn);font-weight:700}
.empty,.note{color:var(--muted)}
form.login{display:flex;flex-direction:column;gap:.6rem;max-width:26rem}
.error{color:var(--warn)}
.kind{font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:var(--accent);
background:var(--accent-soft);border-radius:4px;padding:0 .35rem}
h1 .kind{font-size:.8rem;vertical-align:middle}
.badge{font-size:.75rem;border:1px solid var(--line);border-radius:4px;padding:0 .35rem;
background:var(--bg)}
.badge.stale{color:#fff;background:var(--warn);border-color:var(--warn)}
.badge.fresh{color:#2f855a;border-color:#2f855a}
table{border-collapse:collapse;width:100%;background:var(--card);font-size:.9rem;
border:1px solid var(--line);border-radius:8px}
th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid var(--line);
vertical-align:top}
thead th{color:var(--muted);font-weight:600;font-size:.8rem}
td.type{color:var(--muted);font-size:.8rem}td.num{font-variant-numeric:tabular-nums}
td.reason,.evidence-value{white-space:pre-wrap;overflow-wrap:anywhere}
ol.evidence{margin:0;padding-left:1.4rem}ol.evidence li{margin:.3rem 0}
ol.evidence .note{margin:.1rem 0 0;font-size:.85rem}
.uri{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
figure.chart-box{margin:0}
svg.chart{display:block;width:100%;max-width:40rem;height:auto;background:var(--card);
border:1px solid var(--line);border-radius:8px}
svg.chart text{font:11px system-ui,sans-serif;fill:var(--muted)}
svg.chart .grid{stroke:var(--line);stroke-width:1}
svg.chart .axis{stroke:var(--muted);stroke-width:1}
svg.chart polyline,svg.chart .legend line{fill:none;stroke-width:2}
svg.chart .line-confidence{stroke:var(--accent)}
svg.chart .line-effective{stroke:var(--accent);stroke-dasharray:5 4;stroke-width:1.5}
svg.chart .line-strength{stroke:#2f855a}
svg.chart .threshold{stroke:var(--warn);stroke-dasharray:2 3}
svg.chart .threshold-label{fill:var(--warn)}
svg.chart .mark-event{fill:var(--accent)}svg.chart .mark-recall{fill:#2f855a}
details{margin:.5rem 0}summary{cursor:pointer;color:var(--accent)}
.wide{max-width:80rem;margin:1.5rem auto;padding:0 1.5rem}
.notice{background:var(--accent-soft);border:1px solid var(--accent);border-radius:8px;
padding:.5rem .75rem}
.notice.refused{background:transparent;border-color:var(--warn);color:var(--warn)}
label.choice{display:block;padding:.15rem 0;overflow-wrap:anywhere}
ul.review{list-style:none;padding:0}ul.review li{padding:.3rem 0;font-size:1.1rem}
.item-head{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:0 0 .3rem}
.item-head input{width:1.1rem;height:1.1rem}.number{font-weight:600}
ul.fields{margin:0;padding-left:1.2rem}
form.decide{display:flex;flex-wrap:wrap;gap:.6rem;align-items:center;margin:1rem 0;
background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem}
form.decide input[type=text]{padding:.4rem .6rem;border:1px solid var(--line);
border-radius:6px;font:inherit;min-width:16rem}
form.decide.inline{margin:.5rem 0 0;padding:.4rem .6rem}
form.edit-item{flex-direction:column;align-items:stretch}
label.field{display:flex;flex-direction:column;gap:.2rem;min-width:0}
label.field input,label.field textarea{padding:.4rem .6rem;border:1px solid var(--line);
border-radius:6px;font:inherit;min-width:0;width:100%;box-sizing:border-box}
form.edit-item button{align-self:flex-start}
form.decide label.field input[type=text]{flex:none;min-width:0}
form.resolve fieldset{border:0;margin:0;padding:0;display:flex;flex-direction:column;
gap:.3rem;width:100%}
section.corrections details.correct{background:var(--card);border:1px solid var(--line);
border-radius:8px;padding:.3rem .75rem}
form.correct{display:flex;flex-direction:column;gap:.5rem;margin:.5rem 0}
form.correct label{display:flex;flex-direction:column;gap:.2rem;font-size:.9rem;
color:var(--muted);min-width:0}
form.correct input,form.correct textarea,form.correct select{width:100%;max-width:100%;
padding:.4rem .6rem;border:1px solid var(--line);border-radius:6px;font:inherit;
color:var(--ink);background:var(--card)}
form.correct button{align-self:flex-start}
main.single form.new{max-width:40rem}
.side-by-side{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:1rem}
section.member{background:var(--card);border:1px solid var(--line);border-radius:8px;
padding:.75rem 1rem}
section.member h2{margin-top:0;color:var(--ink)}
figure.graph-box{margin:0}
svg.graph{display:block;width:100%;max-width:40rem;height:auto;background:var(--card);
border:1px solid var(--line);border-radius:8px}
svg.graph line{stroke:var(--muted);stroke-width:1.2}
svg.graph .edge.depth-2 line{stroke-dasharray:4 3}
svg.graph text{font:11px system-ui,sans-serif;fill:var(--ink)}
svg.graph .edge text{fill:var(--muted);font-size:10px}
svg.graph circle{fill:var(--accent);stroke:#fff;stroke-width:2}
svg.graph .depth-2 circle{fill:#7aa3d6}
svg.graph .root circle{fill:var(--warn)}
svg.graph a:hover circle{fill:var(--ink)}
svg.graph{width:auto;max-width:100%}
nav.review-nav{display:flex;flex-wrap:wrap;gap:.3rem .9rem}
.scroll{overflow-x:auto;max-width:100%}
h3{font-size:.95rem;margin:1rem 0 .4rem}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem .8rem;align-items:flex-end;margin:0 0 1rem}
form.filters label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted)}
form.filters input,form.filters select{padding:.3rem .5rem;border:1px solid var(--line);
border-radius:6px;font:inherit;max-width:100%}
ul.sources,ul.plain-list{margin:0;padding-left:1.2rem}
.info>span,.info>a{overflow-wrap:anywhere;min-width:0}
.notice,.single p,.single li{overflow-wrap:anywhere}
details{max-width:100%;overflow-x:auto}
@media (max-width:50rem){.layout{grid-template-columns:minmax(0,1fr)}}
@media (max-width:30rem){header.top{padding:.6rem .8rem}
.layout,.single,.wide{padding:0 .8rem;margin:1rem auto}}
td,.tag,.id,.uri{overflow-wrap:anywhere}
svg.map .edge line{stroke-width:.8;opacity:.55}nav.pager{margin:.5rem 0}
@media (max-width:30rem){table{font-size:.8rem}th,td{padding:.25rem .3rem}
form.decide input[type=text]{min-width:0;flex:1 1 12rem}}
:root{color-scheme:light dark}
@media (prefers-color-scheme:dark){
:root{--ink:#e3e7ec;--muted:#a3adb9;--line:#3a434e;--bg:#14181d;--card:#1d232b;
--accent:#7fb2ee;--accent-soft:#22344a;--warn:#f0a36b}
button,.badge.stale{color:#10151b}
.badge.fresh{color:#6fcf97;border-color:#6fcf97}
svg.chart .line-strength{stroke:#6fcf97}svg.chart .mark-recall{fill:#6fcf97}
svg.graph circle{stroke:var(--card)}svg.graph .depth-2 circle{fill:#4a76a8}}
"""

CSS_HASH = base64.b64encode(hashlib.sha256(CSS.encode("utf-8")).digest()).decode("ascii")

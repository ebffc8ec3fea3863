// Room for the modules' frames and labels (issue 12, point 2: nothing is drawn over a box). dagre frames the boxes of
// one module call but keeps no room for the label drawn above the frame (`model.3 · ReLU`), which can then sit on a
// neighbouring module's frame or box. This pass opens horizontal bands in the finished layout until no label or
// frame meets another module's, a box outside it, or an edge's label. Pure data: no DOM.

/**
 * The room kept above a module's frame for its label, for text of `font` graph units: 12 at full zoom; zoomed out,
 * the graph panel asks for the font its labels will need at the smallest zoom it fits the graph at (11 px on screen).
 * @param {number} width  the label's width at 12 units
 */
export function labelRoom(width, font = 12) {
  return { width: Math.ceil((width * font) / 12), height: Math.ceil(1.2 * font + 6) };
}
const GAP = 4; // between a label and what it cleared
const TOP = 4; // the highest a label may start

/** @typedef {import('./layout.js').Box} Box */

const meets = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Moves boxes down, in bands, until no module label or frame covers another module's, a box outside it or an edge
 * label. A band at y0 moves everything whose top is at y0 or below by the same amount, so what was apart stays apart
 * and nothing new meets; frames are then drawn again around their boxes.
 * @param {import('./layout.js').Layout} out  laid out; changed in place (nodes, edges, labels, clusters, height, width)
 * @param {Map<string, string>} clusterOf  box id → module path (boxes drawn under a box included)
 * @param {Map<string, string>} hostOf  box drawn under another → that box (they move together)
 * @param {Record<string, number>} labelWidth  module path → width of its label
 * @param {Map<string, {from: string, to: string}>} ends  edge id → the boxes its first and last points touch
 * @param {number} [font]  the labels' font size to keep room for (graph units; see labelRoom)
 */
export function makeRoomForClusters(out, clusterOf, hostOf, labelWidth, ends, font = 12) {
  const clusters = out.clusters || {};
  const members = new Map(Object.keys(clusters).map((p) => [p, []]));
  for (const [id, p] of clusterOf) if (out.nodes[id] && members.has(p)) members.get(p).push(id);
  // the frame's padding around its boxes, kept when it is drawn again
  const pads = new Map();
  for (const [p, ids] of members) {
    const c = clusters[p];
    const b = bounds(ids.map((id) => out.nodes[id]));
    if (!b) continue;
    pads.set(p, { top: b.y - c.y, bottom: c.y + c.height - (b.y + b.height) });
  }
  const reframe = () => {
    for (const [p, ids] of members) {
      const b = bounds(ids.map((id) => out.nodes[id]));
      const pad = pads.get(p);
      if (!b || !pad) continue;
      clusters[p].y = b.y - pad.top;
      clusters[p].height = b.height + pad.top + pad.bottom;
    }
  };
  const labelBox = (p) => {
    const room = labelRoom(labelWidth[p] ?? 0, font);
    return { x: clusters[p].x, y: clusters[p].y - room.height, ...room };
  };
  // where a thing's band starts: a box (or its host's top); a module's frame or label: its highest box
  const hostTop = (id) => out.nodes[hostOf.get(id) ?? id].y;
  const clusterTop = (p) => Math.min(...members.get(p).map(hostTop));
  const clusterLow = (p) => Math.max(...members.get(p).map(hostTop));

  /** Everything that may not be covered, with what moves it. */
  const things = () => {
    const list = [];
    for (const [id, box] of Object.entries(out.nodes))
      list.push({ kind: 'box', id, box, cluster: clusterOf.get(id), top: hostTop(id), low: hostTop(id) });
    for (const [id, box] of Object.entries(out.labels)) list.push({ kind: 'edge', id, box, top: box.y, low: box.y });
    for (const p of Object.keys(clusters)) {
      if (!members.get(p).length) continue;
      const top = clusterTop(p);
      const low = clusterLow(p);
      list.push({ kind: 'frame', id: p, box: clusters[p], cluster: p, top, low });
      list.push({ kind: 'label', id: p, box: labelBox(p), cluster: p, top, low });
    }
    return list;
  };
  /** Must these two not meet? (boxes, edge labels among themselves and frames with edge labels are dagre's care) */
  const guarded = (a, b) => {
    if (a.cluster && a.cluster === b.cluster) return false;
    const mod = (t) => t.kind === 'frame' || t.kind === 'label';
    if (!mod(a) && !mod(b)) return false;
    if (a.kind === 'edge' || b.kind === 'edge') return a.kind === 'label' || b.kind === 'label';
    return true;
  };

  const stuck = new Set();
  for (let round = 0; round < 400; round++) {
    const list = things();
    let cut = null;
    search: for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const [a, b] = [list[i], list[j]];
        if (!guarded(a, b) || !meets(a.box, b.box)) continue;
        // the upper one stays; the band starts at the lower one's highest box and must pass all of the upper one's
        const [up, low] = a.box.y <= b.box.y ? [a, b] : [b, a];
        const key = `${up.kind}:${up.id}|${low.kind}:${low.id}`;
        if (stuck.has(key)) continue;
        if (up.low >= low.top) {
          stuck.add(key); // side by side: no band separates them
          continue;
        }
        cut = { y0: low.top, dy: up.box.y + up.box.height + GAP - low.box.y };
        break search;
      }
    if (!cut) break;
    band(out, cut.y0, cut.dy, hostOf, ends);
    reframe();
  }
  // a label above the highest frame stays inside the picture
  const highest = Math.min(...Object.keys(clusters).map((p) => (members.get(p).length ? labelBox(p).y : TOP)));
  if (highest < TOP) {
    band(out, -Infinity, TOP - highest, hostOf, ends);
    reframe();
  }
  for (const p of Object.keys(clusters)) {
    const room = labelBox(p);
    clusters[p].labelWidth = room.width;
    clusters[p].labelHeight = room.height;
  }
  for (const t of things()) {
    out.width = Math.max(out.width, t.box.x + t.box.width + TOP);
    out.height = Math.max(out.height, t.box.y + t.box.height + TOP);
  }
}

/** Moves everything whose top is at `y0` or below down by `dy` (a box under another moves with it). */
function band(out, y0, dy, hostOf, ends) {
  const moved = new Set();
  for (const id of Object.keys(out.nodes)) if (out.nodes[hostOf.get(id) ?? id].y >= y0) moved.add(id);
  for (const id of moved) out.nodes[id].y += dy;
  for (const label of Object.values(out.labels)) if (label.y >= y0) label.y += dy;
  for (const [id, points] of Object.entries(out.edges)) {
    const e = ends.get(id);
    points.forEach((p, i) => {
      const end = i === 0 ? e?.from : i === points.length - 1 ? e?.to : undefined;
      if (end !== undefined ? moved.has(end) : p.y >= y0) p.y += dy;
    });
  }
}

/** The smallest box holding these. */
function bounds(boxes) {
  const ok = boxes.filter(Boolean);
  if (!ok.length) return null;
  const x = Math.min(...ok.map((b) => b.x));
  const y = Math.min(...ok.map((b) => b.y));
  return {
    x,
    y,
    width: Math.max(...ok.map((b) => b.x + b.width)) - x,
    height: Math.max(...ok.map((b) => b.y + b.height)) - y,
  };
}

"use strict";
// The views sent as differences (issue 40, conquista/web/view_diff.py): a page that includes this script asks for
// them in its hello (client.js), and every "<kind>_diff" frame (public, and a seated phone's seat and host views) is
// made back into the whole "<kind>" frame here, before the page or its modules see it. The server sends each kind
// whole first on every (re)connection, and a seat's view whole again when the screen plays another seat.
const viewPatches = (() => {
  let bases = {};   // the last whole view of each kind, as the server last sent it
  // The value at `path` set, without touching the old view's objects (a page may keep the last view to compare).
  function patched(node, path, at, change) {
    if (at === path.length) return change(node);
    const copy = Array.isArray(node) ? node.slice() : Object.assign({}, node);
    const key = path[at];
    if (at === path.length - 1 && change === REMOVE) delete copy[key];
    else copy[key] = patched(node[key], path, at + 1, change);
    return copy;
  }
  const REMOVE = () => undefined;
  function apply(view, ops) {
    let out = view;
    for (const op of ops) {
      const [kind, path] = op;
      if (kind === "=") out = patched(out, path, 0, () => op[2]);
      else if (kind === "-") out = patched(out, path, 0, REMOVE);
      else if (kind === "<") out = patched(out, path, 0, (list) => list.slice(op[2]).concat(op[3]));
      else throw new Error(`unknown view difference ${kind}`);
    }
    return out;
  }
  const KINDS = ["public", "seat", "host"];
  return {
    // The frame as the page reads it; null for a difference with no view to apply it to (never sent so).
    frame(frame) {
      if (KINDS.includes(frame.type)) bases[frame.type] = frame.view;
      const kind = frame.type.endsWith("_diff") ? frame.type.slice(0, -5) : null;
      if (!KINDS.includes(kind)) return frame;
      if (!(kind in bases)) return null;
      bases[kind] = apply(bases[kind], frame.ops);
      const whole = { type: kind, view: bases[kind] };
      if ("now" in frame) whole.now = frame.now;
      return whole;
    },
    reset() { bases = {}; },
  };
})();

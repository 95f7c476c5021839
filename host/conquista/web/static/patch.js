"use strict";
// The public view sent as differences (issue 40, conquista/web/view_diff.py): a page that includes this script asks
// for them in its hello (client.js), and every "public_diff" frame is made back into the whole "public" frame here,
// before the page or its modules see it. The server sends the whole view first on every (re)connection.
const viewPatches = (() => {
  let base = null;
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
  return {
    // The frame as the page reads it; null for a difference with no view to apply it to (never sent so).
    frame(frame) {
      if (frame.type === "public") base = frame.view;
      if (frame.type !== "public_diff") return frame;
      if (base === null) return null;
      base = apply(base, frame.ops);
      return { type: "public", now: frame.now, view: base };
    },
    reset() { base = null; },
  };
})();

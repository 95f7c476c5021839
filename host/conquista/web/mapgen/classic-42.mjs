// Draws the classic 42-territory world for the public board: host/conquista/web/static/classic-42.svg.
//
// Run at development time by `make map` (which installs the npm packages under build/mapgen); the SVG it writes
// is committed, so neither the board nor a player's browser ever needs node. The shapes come from public-domain
// data only: Natural Earth's land (the `world-atlas` package, 1:110m), cut into territories by spherical Voronoi
// cells around anchor points chosen here from geography (a territory may have several anchors: the union of
// their cells is its land). Nothing is traced from a printed board.
//
// Usage: node classic-42.mjs <node_modules dir> <map json> <svg out>
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [modules, mapFile, outFile] = process.argv.slice(2);
if (!outFile) {
  console.error("usage: node classic-42.mjs <node_modules dir> <map json> <svg out>");
  process.exit(2);
}
// The packages live under build/ (gitignored), not next to this script: resolve them from there.
const require = createRequire(join(modules, "resolver.js"));
const load = (name) => import(pathToFileURL(require.resolve(name)).href);
const { geoPath, geoRotation, geoProjection, geoMercatorRaw } = await load("d3-geo");
const { geoVoronoi } = await load("d3-geo-voronoi");
const { geoClipPolygon } = await load("d3-geo-polygon");
const { feature } = await load("topojson-client");

// [lon, lat] anchors; the first one is where the territory's armies are drawn (unless BADGES says otherwise).
const ANCHORS = {
  alaska: [[-153, 64], [-160, 60], [-165, 66]],
  northwest_territory: [[-118, 64], [-100, 67], [-95, 75], [-80, 73], [-130, 66]],
  greenland: [[-41, 73], [-44, 64], [-40, 81]],
  alberta: [[-116, 55], [-126, 56]],
  ontario: [[-89, 51], [-96, 53]],
  quebec: [[-72, 52], [-67, 57], [-77, 60]],
  western_us: [[-114, 40], [-120, 45], [-108, 34], [-105, 46]],
  eastern_us: [[-85, 37], [-95, 37], [-80, 41], [-82, 29]],
  central_america: [[-101, 22], [-89, 15], [-78, 21]],
  venezuela: [[-66, 7], [-74, 3]],
  brazil: [[-50, -10], [-44, -17], [-57, -3]],
  peru: [[-74, -10], [-65, -16]],
  argentina: [[-65, -34], [-70, -46]],
  iceland: [[-19, 65]],
  great_britain: [[-2, 53], [-8, 53], [-4, 57]],
  scandinavia: [[15, 63], [25, 67], [9, 60]],
  ukraine: [[36, 53], [46, 62], [32, 48], [45, 49]],
  northern_europe: [[15, 52], [22, 52]],
  western_europe: [[-3, 41], [2, 46]],
  southern_europe: [[15, 43], [22, 42], [13, 46]],
  north_africa: [[0, 24], [-8, 16], [10, 16], [7, 31]],
  egypt: [[29, 26], [22, 29]],
  east_africa: [[38, 6], [35, -4], [30, 14]],
  congo: [[21, 0], [15, -4], [24, 6]],
  south_africa: [[25, -26], [28, -15]],
  madagascar: [[46.5, -19]],
  ural: [[62, 58], [68, 66]],
  siberia: [[86, 62], [82, 72], [92, 55]],
  yakutsk: [[125, 65], [118, 72]],
  kamchatka: [[160, 59], [165, 66], [178, 67], [-172, 66]],
  irkutsk: [[106, 57], [116, 56]],
  mongolia: [[104, 47], [119, 48]],
  japan: [[138, 37], [142, 43]],
  afghanistan: [[65, 36], [66, 46]],
  china: [[105, 33], [90, 36], [115, 27]],
  middle_east: [[44, 30], [49, 23], [35, 38]],
  india: [[78, 22], [75, 28]],
  siam: [[100, 16], [105, 12]],
  indonesia: [[113, -1], [102, 0], [121, -4], [123, 10]],
  new_guinea: [[142, -5], [147, -8]],
  western_australia: [[122, -25], [128, -20]],
  eastern_australia: [[145, -27], [140, -19], [172, -42]],
};
// Where a territory's armies are drawn when not at its first anchor: Europe is small for its seven territories.
const BADGES = {
  great_britain: [-8, 56], northern_europe: [13, 53], scandinavia: [16, 65], western_europe: [-4, 40],
  southern_europe: [21, 44], ukraine: [41, 55], iceland: [-20, 65], egypt: [28, 25], middle_east: [46, 29], irkutsk: [106, 59.5],
  mongolia: [108, 47], western_us: [-117, 41], eastern_us: [-84, 37], western_australia: [120, -23],
  eastern_australia: [147, -29],
};
// Names written above the armies, where the one below would run into a neighbour.
const NAME_ABOVE = new Set(["scandinavia", "northern_europe"]);
// Where each continent's name is written: in the sea beside it.
const CONTINENT_LABELS = {
  north_america: [-132, 4], south_america: [-116, -44], europe: [-36, 41], africa: [-16, -14],
  asia: [72, 2], oceania: [100, -46],
};
const WIDTH = 1600;
const ROTATE = [-11, 0];   // the map is cut in the Bering Strait (169°W): Alaska at the left, Kamchatka at the right
const CUT = -180 - ROTATE[0];
const SOUTH = -56;
const NORTH = 79;

const game = JSON.parse(readFileSync(mapFile, "utf8"));
const ids = game.territories.map((t) => t.id);
const missing = ids.filter((id) => !ANCHORS[id]);
if (missing.length || Object.keys(ANCHORS).length !== ids.length) {
  console.error(`${mapFile}: anchors missing for ${missing.join(", ") || "(extra anchors)"}; edit ANCHORS`);
  process.exit(1);
}
const continentOf = {};
for (const c of game.continents) for (const t of c.territories) continentOf[t] = c.id;

// Natural Earth land without Antarctica and Hawaii (far from every territory, it would join the nearest one).
const topology = JSON.parse(readFileSync(join(modules, "world-atlas", "land-110m.json"), "utf8"));
const land = feature(topology, topology.objects.land).features[0].geometry;
const keep = (polygon) => {
  const ring = polygon[0];
  const lats = ring.map((p) => p[1]);
  const lons = ring.map((p) => p[0]);
  const hawaii = Math.min(...lons) > -162 && Math.max(...lons) < -154 && Math.max(...lats) < 23;
  // An island astride the cut (St Lawrence Island) would be drawn across the whole map.
  const astride = Math.min(...lons) < CUT && Math.max(...lons) > CUT && Math.max(...lons) - Math.min(...lons) < 20;
  return Math.max(...lats) > -60 && !hawaii && !astride;
};
land.coordinates = land.coordinates.filter(keep);

const sites = [];
for (const id of ids) for (const point of ANCHORS[id]) sites.push({ id, point });
const voronoi = geoVoronoi(sites.map((s) => s.point));
const cells = voronoi.polygons().features;

// Mercator, as board games draw the world (Europe gets room for its seven territories), fitted to the width and
// cropped from NORTH to SOUTH.
// The raw projection, without geoMercator's automatic clip to the world's square: the cells do the clipping.
const mercator = () => geoProjection(geoMercatorRaw);
const projection = mercator().rotate(ROTATE).scale(1).translate([0, 0]);
const [x0] = projection([-180 - ROTATE[0] + 1e-9, 0]);
const [x1] = projection([180 - ROTATE[0] - 1e-9, 0]);
const scale = WIDTH / (x1 - x0);
projection.scale(scale).translate([WIDTH / 2, 0]);
const top = projection([-ROTATE[0], NORTH])[1];
const bottom = projection([-ROTATE[0], SOUTH])[1];
projection.translate([WIDTH / 2, -top]);
const HEIGHT = Math.round(bottom - top);
const round = (v) => Math.round(v * 10) / 10;
const at = (lonlat) => projection(lonlat).map(round);

// The land inside one cell: the cell, rotated as the projection rotates, replaces the antimeridian clip (no land
// crosses the cut in the Bering Strait, so nothing needs cutting there).
const rotation = geoRotation(ROTATE);
function landIn(cell) {
  const rotated = { type: "Polygon", coordinates: cell.coordinates.map((ring) => ring.map((p) => rotation(p))) };
  const clip = geoClipPolygon(rotated);
  const clipped = mercator().rotate(ROTATE).scale(scale).translate(projection.translate())
    .preclip(clip);
  return geoPath(clipped).digits(1)(land) || "";
}

const shapes = Object.fromEntries(ids.map((id) => [id, []]));
cells.forEach((cell, i) => {
  const d = landIn(cell.geometry);
  if (d) shapes[sites[i].id].push(d);
});
const empty = ids.filter((id) => !shapes[id].length);
if (empty.length) {
  console.error(`no land falls to ${empty.join(", ")}: move their anchors`);
  process.exit(1);
}

// The borders on land: the Voronoi edges between anchors of different territories (or continents), clipped to
// the land and drawn over the territories; the cells of one territory's anchors join without a seam.
const { centers, polygons, edges } = voronoi.delaunay;
function edgesBetween(differ) {
  const arcs = [];
  for (const [i, j] of edges) {
    if (!differ(sites[i].id, sites[j].id)) continue;
    const shared = polygons[i].filter((c) => polygons[j].includes(c));
    if (shared.length === 2) arcs.push([centers[shared[0]], centers[shared[1]]]);
  }
  return { type: "MultiLineString", coordinates: arcs };
}
const rotatedLand = { type: "MultiPolygon",
  coordinates: land.coordinates.map((polygon) => polygon.map((ring) => ring.map((p) => rotation(p)))) };
const landClip = geoClipPolygon(rotatedLand);
const onLand = mercator().rotate(ROTATE).scale(scale).translate(projection.translate())
  .preclip(landClip);
const linesOnLand = (lines) => geoPath(onLand).digits(1)(lines) || "";
const borders = linesOnLand(edgesBetween((a, b) => a !== b && continentOf[a] === continentOf[b]));
const continentBorders = linesOnLand(edgesBetween((a, b) => continentOf[a] !== continentOf[b]));

// Sea links: a straight line between the two anchors; the one across the cut (Alaska–Kamchatka) leaves each edge.
const seaLinks = [];
for (const link of game.links) {
  if (!link.sea) continue;
  const [a, b] = [at(ANCHORS[link.a][0]), at(ANCHORS[link.b][0])];
  if (Math.abs(a[0] - b[0]) > WIDTH / 2) {
    const [left, right] = a[0] < b[0] ? [a, b] : [b, a];
    seaLinks.push(`M${left[0]},${left[1]}L0,${left[1]}`, `M${right[0]},${right[1]}L${WIDTH},${right[1]}`);
  } else {
    seaLinks.push(`M${a[0]},${a[1]}L${b[0]},${b[1]}`);
  }
}

const out = [];
out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" class="world" ` +
  `data-generator="host/conquista/web/mapgen/classic-42.mjs">`);
out.push(`<!-- Generated by host/conquista/web/mapgen/classic-42.mjs (make map) from Natural Earth land ` +
  `(public domain) via world-atlas; do not edit by hand. -->`);
out.push(`<path class="sea-links" d="${seaLinks.join("")}"/>`);
for (const c of game.continents) {
  out.push(`<g class="continent" data-continent="${c.id}">`);
  for (const id of c.territories) {
    const [x, y] = at(BADGES[id] || ANCHORS[id][0]);
    const above = NAME_ABOVE.has(id) ? ` data-name="above"` : "";
    out.push(`<path class="land" data-id="${id}" data-x="${x}" data-y="${y}"${above} d="${shapes[id].join("")}"/>`);
  }
  out.push(`</g>`);
}
out.push(`<path class="borders" d="${borders}"/>`);
out.push(`<path class="continent-borders" d="${continentBorders}"/>`);
for (const c of game.continents) {
  const [x, y] = at(CONTINENT_LABELS[c.id]);
  out.push(`<text class="continent-name" data-continent="${c.id}" x="${x}" y="${y}">${c.name_en} +${c.bonus}</text>`);
}
out.push(`</svg>`);
writeFileSync(outFile, out.join("\n") + "\n");
console.log(`${outFile}: ${ids.length} territories, ${WIDTH}×${HEIGHT}, ${out.join("\n").length} bytes`);

// Runs a Python script under the real MicroPython (WebAssembly port) with given files placed in its filesystem.
// usage: node mpy_runner.mjs MICROPYTHON_MJS MANIFEST_JSON
// The manifest is {"files": {"/lib/x.py": "/host/path/x.py", ...}, "main": "/host/path/script.py", "heapsize": N}.
// Exit status 1 with the traceback on stderr when the script raises, so pytest sees a MicroPython failure.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [mjsPath, manifestPath] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
const { loadMicroPython } = await import(pathToFileURL(mjsPath).href);
let out = "";
let err = "";
const mp = await loadMicroPython({
  heapsize: manifest.heapsize || 1024 * 1024,
  linebuffer: false,
  stdout: (d) => { out += typeof d === "string" ? d : new TextDecoder().decode(d); },
  stderr: (d) => { err += typeof d === "string" ? d : new TextDecoder().decode(d); },
});
for (const [dest, src] of Object.entries(manifest.files)) {
  const parts = dest.split("/").filter((p) => p);
  let dir = "";
  for (const p of parts.slice(0, -1)) {
    dir += "/" + p;
    try { mp.FS.mkdir(dir); } catch (e) { /* already there */ }
  }
  mp.FS.writeFile(dest, src === "" ? "" : readFileSync(src));
}
let status = 0;
try {
  mp.runPython(readFileSync(manifest.main, "utf8"));
} catch (e) {
  err += String(e && e.message ? e.message : e) + "\n";
  status = 1;
}
process.stdout.write(out);
process.stderr.write(err);
process.exit(status);

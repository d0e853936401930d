// The files a user dropped or picked, as [{path, file}] with paths
// relative to the drop ("faerie.md2", "players/male/tris.md2" for a
// folder). Read from the browser's File objects only: nothing is uploaded.

/** Every file under a dropped entry (a file or a folder), recursively. */
async function walk(entry, out) {
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    out.push({ path: entry.fullPath.replace(/^\/+/, ''), file });
  } else if (entry.isDirectory) {
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, out);
    }
  }
}

/** The files of a drop event (folders walked). */
export async function filesOfDrop(dataTransfer) {
  const entries = [...dataTransfer.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.())
    .filter(Boolean);
  if (entries.length === 0) return filesOfList(dataTransfer.files);
  const out = [];
  for (const entry of entries) await walk(entry, out);
  return out;
}

/** The files of an <input type=file> (a folder pick gives relative paths). */
export function filesOfList(list) {
  return [...list].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/** Reads them all: [{path, bytes: Uint8Array}]. */
export async function readAll(files) {
  return Promise.all(files.map(async ({ path, file }) => ({ path, bytes: new Uint8Array(await file.arrayBuffer()) })));
}

// A minimal GIF89a reader for the e2e's pixel checks of an exported filmstrip.gif: every
// frame composed onto the logical screen, as RGBA. Enough for what the exporter writes
// (global or local colour tables, LZW, no interlacing needed but handled); not a general
// decoder. No dependency: the e2e's PNG reader (png.mjs) is hand-written the same way.

/** The frames of the GIF in `bytes`, each `{ width, height, data }` (RGBA). */
export function readGif(bytes) {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const sig = String.fromCharCode(...b.subarray(0, 6));
  if (sig !== "GIF89a" && sig !== "GIF87a") throw new Error(`not a GIF (${sig})`);
  const u16 = (at) => b[at] | (b[at + 1] << 8);
  const width = u16(6);
  const height = u16(8);
  const packed = b[10];
  let at = 13;
  let global = null;
  if (packed & 0x80) {
    const size = 3 * (1 << ((packed & 7) + 1));
    global = b.subarray(at, at + size);
    at += size;
  }
  const canvas = new Uint8Array(width * height * 4);
  const frames = [];
  let transparent = -1;
  const subBlocks = () => {
    const parts = [];
    for (let n = b[at++]; n > 0; n = b[at++]) {
      parts.push(b.subarray(at, at + n));
      at += n;
    }
    const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  };
  while (at < b.length) {
    const kind = b[at++];
    if (kind === 0x3b) break; // trailer
    if (kind === 0x21) {
      const label = b[at++];
      const data = subBlocks();
      if (label === 0xf9) transparent = data[0] & 1 ? data[3] : -1;
      continue;
    }
    if (kind !== 0x2c) throw new Error(`unexpected GIF block 0x${kind.toString(16)} at ${at - 1}`);
    const [left, top, w, h] = [u16(at), u16(at + 2), u16(at + 4), u16(at + 6)];
    const flags = b[at + 8];
    at += 9;
    let table = global;
    if (flags & 0x80) {
      const size = 3 * (1 << ((flags & 7) + 1));
      table = b.subarray(at, at + size);
      at += size;
    }
    const minCode = b[at++];
    const indices = lzw(subBlocks(), minCode, w * h);
    const rows = flags & 0x40 ? interlacedRows(h) : [...Array(h).keys()];
    for (let i = 0; i < indices.length && i < w * h; i++) {
      const index = indices[i];
      if (index === transparent) continue;
      const x = left + (i % w);
      const y = top + rows[Math.floor(i / w)];
      if (x >= width || y >= height) continue;
      const p = (y * width + x) * 4;
      canvas[p] = table[index * 3];
      canvas[p + 1] = table[index * 3 + 1];
      canvas[p + 2] = table[index * 3 + 2];
      canvas[p + 3] = 255;
    }
    frames.push({ width, height, data: canvas.slice() });
  }
  return frames;
}

function interlacedRows(h) {
  const rows = [];
  for (const [start, step] of [[0, 8], [4, 8], [2, 4], [1, 2]]) for (let y = start; y < h; y += step) rows.push(y);
  return rows;
}

/** GIF's variable-width LZW, LSB first. */
function lzw(data, minCode, expected) {
  const clear = 1 << minCode;
  const end = clear + 1;
  let size = minCode + 1;
  let dict = [];
  const reset = () => {
    dict = [];
    for (let i = 0; i < clear; i++) dict.push([i]);
    dict.push(null, null);
    size = minCode + 1;
  };
  reset();
  const out = [];
  let bits = 0;
  let acc = 0;
  let prev = null;
  for (let i = 0; i < data.length && out.length < expected; ) {
    while (bits < size && i < data.length) {
      acc |= data[i++] << bits;
      bits += 8;
    }
    if (bits < size) break;
    const code = acc & ((1 << size) - 1);
    acc >>>= size;
    bits -= size;
    if (code === clear) {
      reset();
      prev = null;
      continue;
    }
    if (code === end) break;
    let entry;
    if (code < dict.length && dict[code]) entry = dict[code];
    else if (prev) entry = [...prev, prev[0]];
    else throw new Error("bad LZW code");
    out.push(...entry);
    if (prev) {
      dict.push([...prev, entry[0]]);
      if (dict.length === 1 << size && size < 12) size++;
    }
    prev = entry;
  }
  return out;
}

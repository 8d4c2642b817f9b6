// Gives a WebAssembly module's own memory a maximum. Go's wasm build defines its memory with
// no maximum, so a template that allocates without bound grows it until the process runs out
// (4.6 GB seen). With a maximum, `memory.grow` fails past it, the Go runtime dies with "out of
// memory", and only that worker is lost.

const PAGE = 64 * 1024;
const MEMORY_SECTION = 5;

/**
 * @param {Uint8Array} bytes
 * @param {number} at
 * @returns {[value: number, next: number]} an unsigned LEB128 number and the offset after it
 */
function readLeb(bytes, at) {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (at >= bytes.length) throw new Error('truncated WebAssembly module');
    const byte = bytes[at++];
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return [value, at];
    scale *= 128;
  }
}

/** @param {number} value @returns {number[]} */
function leb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

/**
 * The module with its (one) memory limited to `maxBytes`, rounded down to whole pages and
 * never below the memory's initial size (the module could not start with less).
 * @param {Uint8Array} bytes a WebAssembly binary
 * @param {number} maxBytes
 * @returns {{ bytes: Uint8Array; maxPages: number; minPages: number }}
 */
export function capMemory(bytes, maxBytes) {
  let at = 8; // magic and version
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, body] = readLeb(bytes, at + 1);
    const end = body + size;
    if (id === MEMORY_SECTION) {
      const [count, first] = readLeb(bytes, body);
      if (count !== 1) throw new Error(`expected one memory in the module, found ${count}`);
      const flags = bytes[first];
      if (flags !== 0 && flags !== 1) throw new Error(`unsupported memory limits flags ${flags}`);
      const [minPages, afterMin] = readLeb(bytes, first + 1);
      const maxPages = Math.max(minPages, Math.floor(maxBytes / PAGE));
      const content = [...leb(1), 0x01, ...leb(minPages), ...leb(maxPages)];
      const section = Uint8Array.from([MEMORY_SECTION, ...leb(content.length), ...content]);
      const [, afterLimits] = flags === 1 ? readLeb(bytes, afterMin) : [0, afterMin];
      if (afterLimits !== end) throw new Error('unexpected bytes after the memory limits');
      const out = new Uint8Array(at + section.length + (bytes.length - end));
      out.set(bytes.subarray(0, at), 0);
      out.set(section, at);
      out.set(bytes.subarray(end), at + section.length);
      return { bytes: out, maxPages, minPages };
    }
    at = end;
  }
  throw new Error('the module defines no memory (an imported memory cannot be capped here)');
}

/** A reader for the protobuf wire format (varints, fixed 32/64-bit, length-delimited). */
export class WireReader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      const byte = this.buf[this.pos++];
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return result;
      shift += 7n;
      if (shift > 70n) throw new Error('varint too long');
    }
  }

  bytes(): Uint8Array {
    const length = Number(this.varint());
    if (this.pos + length > this.buf.length) throw new Error('truncated length-delimited field');
    const out = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  fixed64(): DataView {
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return view;
  }

  fixed32(): DataView {
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4);
    this.pos += 4;
    return view;
  }

  /** Field number and wire type of the next key. */
  key(): { field: number; wireType: number } {
    const key = Number(this.varint());
    return { field: key >>> 3, wireType: key & 7 };
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wireType}`);
  }
}

/** A writer for the protobuf wire format: length-delimited fields (strings and nested messages) only. */
export class WireWriter {
  private readonly parts: Buffer[] = [];

  private varint(value: number): void {
    const bytes: number[] = [];
    let v = value;
    while (v > 0x7f) {
      bytes.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    bytes.push(v);
    this.parts.push(Buffer.from(bytes));
  }

  /** A length-delimited field (wire type 2): a string, bytes or an encoded message. */
  bytes(field: number, value: Uint8Array | string): this {
    const data = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
    this.varint((field << 3) | 2);
    this.varint(data.length);
    this.parts.push(data);
    return this;
  }

  /** A nested message, encoded by `fill`. */
  message(field: number, fill: (w: WireWriter) => void): this {
    const inner = new WireWriter();
    fill(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

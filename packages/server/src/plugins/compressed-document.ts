import { brotliCompressSync, crc32, deflateRawSync, constants as zlibConstants } from 'node:zlib';

// A page whose body is the same for everyone but for a short part at its end (the landing page's form
// token, issue 33): the long head is compressed once, at the best settings, and each answer appends its
// own tail as an uncompressed block of the same stream. The browser reads one ordinary gzip or Brotli
// body; the server spends no compression per request. Both formats allow it: the head's stream is flushed
// to a byte boundary without being finished (deflate's sync flush, Brotli's flush), then the tail goes in
// a stored block (deflate, RFC 1951 §3.2.4) or an uncompressed meta-block (Brotli, RFC 7932 §9.2), and the
// stream is closed (gzip's CRC-32 and length cover head and tail; Brotli's last, empty meta-block).

/** At most one stored block's worth: the tails are a few hundred bytes. */
const MAX_TAIL = 65_535;
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0x02, 0xff]);

export type CompressedHead = {
  head: string;
  gzip: { body: Buffer; crc: number; length: number };
  br: Buffer;
};

export function compressHead(head: string): CompressedHead {
  const bytes = Buffer.from(head, 'utf8');
  return {
    head,
    gzip: {
      body: Buffer.concat([
        GZIP_HEADER,
        deflateRawSync(bytes, { level: 9, finishFlush: zlibConstants.Z_SYNC_FLUSH }),
      ]),
      crc: crc32(bytes),
      length: bytes.length,
    },
    br: brotliCompressSync(bytes, {
      finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH,
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  };
}

function tailBytes(tail: string): Buffer {
  const bytes = Buffer.from(tail, 'utf8');
  if (bytes.length === 0 || bytes.length > MAX_TAIL) throw new Error(`a tail must be 1–${MAX_TAIL} bytes`);
  return bytes;
}

/** The gzip body of head + tail. */
export function gzipWithTail(head: CompressedHead, tail: string): Buffer {
  const bytes = tailBytes(tail);
  const block = Buffer.alloc(5);
  block[0] = 0x01; // BFINAL = 1, BTYPE = 00 (stored); the rest of the byte is padding
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(bytes, head.gzip.crc) >>> 0, 0);
  trailer.writeUInt32LE((head.gzip.length + bytes.length) >>> 0, 4);
  return Buffer.concat([head.gzip.body, block, bytes, trailer]);
}

/** The Brotli body of head + tail. */
export function brotliWithTail(head: CompressedHead, tail: string): Buffer {
  const bytes = tailBytes(tail);
  // ISLAST = 0, MNIBBLES = 4 (coded 0), MLEN - 1 in 16 bits, ISUNCOMPRESSED = 1: 20 bits, padded to 3 bytes.
  const header = ((bytes.length - 1) << 3) | (1 << 19);
  const meta = Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]);
  // ISLAST = 1, ISLASTEMPTY = 1: the end of the stream.
  return Buffer.concat([head.br, meta, bytes, Buffer.from([0x03])]);
}

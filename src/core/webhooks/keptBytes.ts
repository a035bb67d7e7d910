// The bytes the history holds in memory of a body: a Buffer, or, for a body whose bytes are all ASCII, the text of
// them, one character a byte. A Buffer of a request's body is four objects (its view, its ArrayBuffer, the
// ArrayBuffer's extension and backing store, the bytes outside the heap); the text is one, and the receiver has
// decoded it anyway to parse the event, and the history holds thousands of bodies. A text is turned back into the
// same bytes wherever they are read or written.

export type KeptBytes = Buffer | string;

/** The bytes themselves: the Buffer, or the text's characters as the bytes they were. */
export function keptBuffer(kept: KeptBytes): Buffer {
  return typeof kept === 'string' ? Buffer.from(kept, 'latin1') : kept;
}

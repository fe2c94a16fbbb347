import type { ServerResponse } from 'node:http';

/**
 * Ends an answer with these buffers as its body and their total as its Content-Length, never a chunked
 * transfer encoding, without joining them first: Node corks the socket for the writes of one tick, so headers
 * and buffers leave in one `writev`.
 */
export function endWithBytes(res: ServerResponse, buffers: readonly Buffer[]): void {
  if (buffers.length <= 1) {
    res.end(buffers[0]);
    return;
  }
  res.setHeader(
    'content-length',
    buffers.reduce((sum, buffer) => sum + buffer.length, 0),
  );
  for (const buffer of buffers) res.write(buffer);
  res.end();
}

/**
 * Writes the pieces `produce` makes as it makes them (chunked), then ends the answer. A failure before the first
 * piece is thrown as any other (the error middleware answers it); after it, the headers have left, so the error
 * middleware cuts the connection and the caller sees an incomplete answer, never a truncated success.
 */
export async function writeAsProduced(
  res: ServerResponse,
  produce: (write: (piece: Buffer) => void) => Promise<void>,
): Promise<void> {
  await produce((piece) => {
    if (!res.destroyed) res.write(piece);
  });
  res.end();
}

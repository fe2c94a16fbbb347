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

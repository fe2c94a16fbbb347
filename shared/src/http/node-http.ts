/**
 * Node's http module, read without its ES module wrapper: `import … from 'node:http'` makes Node read every
 * export to build the named ones, and three of them (WebSocket, CloseEvent, MessageEvent) are lazy getters
 * that load Node's own bundled undici: ≈13 MB of RSS in every process, for classes no service uses.
 */
export const { createServer, request, STATUS_CODES } = process.getBuiltinModule('node:http');

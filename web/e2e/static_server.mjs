// A static file server on 127.0.0.1 for the browser tests (correct MIME type for .wasm). With
// { gzip: true } it compresses every response, as many hosts do (Content-Encoding: gzip); with
// { cors: true } it sends Access-Control-Allow-Origin: * (as dist/_headers asks of a host).
import http from 'node:http';
import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml' };

export function serveDirectory(folder, { gzip = false, cors = false } = {}) {
  const root = path.resolve(folder);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(path.resolve(root))) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404).end('not found'); return; }
      const headers = { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' };
      if (cors) headers['Access-Control-Allow-Origin'] = '*';
      if (gzip) {
        data = zlib.gzipSync(data);
        headers['Content-Encoding'] = 'gzip';
      }
      res.writeHead(200, { ...headers, 'Content-Length': data.length }).end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

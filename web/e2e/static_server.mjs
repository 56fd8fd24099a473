// A static file server on 127.0.0.1 for the browser tests (correct MIME type for .wasm). With
// { gzip: true } it compresses every response, as many hosts do (Content-Encoding: gzip); with
// { cors: true } it sends Access-Control-Allow-Origin: * (as dist/_headers asks of a host); with
// { inject: '<script>...</script>' } it puts that text first in every HTML page's <head> (a test's
// hook that must run before the page's own scripts). server.failures lists every answer >= 400 it
// gave ("HTTP 404 for /path"), for engines whose driver reports no responses.
import http from 'node:http';
import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml' };

export function serveDirectory(folder, { gzip = false, cors = false, inject = '' } = {}) {
  const root = path.resolve(folder);
  const failures = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const fail = (status) => { failures.push(`HTTP ${status} for ${url.pathname}`); res.writeHead(status).end('not found'); };
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(path.resolve(root))) { fail(403); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { fail(404); return; }
      if (inject && path.extname(file) === '.html') data = Buffer.from(data.toString().replace(/<head>/i, (h) => h + inject));
      const headers = { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' };
      if (cors) headers['Access-Control-Allow-Origin'] = '*';
      if (gzip) {
        data = zlib.gzipSync(data);
        headers['Content-Encoding'] = 'gzip';
      }
      res.writeHead(200, { ...headers, 'Content-Length': data.length }).end(data);
    });
  });
  server.failures = failures;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

'use strict';

const http = require('http');
const { parse } = require('url');

/**
 * Routes maps paths to handlers.
 */
class Router {
  constructor() {
    this.routes = new Map();
  }

  get(path, handler) {
    this.routes.set('GET ' + path, handler);
  }

  handle(req, res) {
    const h = this.routes.get(req.method + ' ' + parse(req.url).pathname);
    if (!h) {
      res.statusCode = 404;
      return res.end('not found');
    }
    return h(req, res);
  }
}

// listen starts the server.
function listen(router, port = 8080) {
  return http.createServer((req, res) => router.handle(req, res)).listen(port);
}

const hello = (req, res) => res.end('hello');

async function* lines(stream) {
  for await (const chunk of stream) yield chunk.toString();
}

module.exports = { Router, listen, hello };

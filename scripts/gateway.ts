// The local stand-in for the nginx gateway of docker-compose: one port, ingestion routes to the
// ingest service, everything else to the management API.
import express from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';

const port = Number(process.env.PORT ?? 8080);
const api = process.env.API_URL ?? 'http://127.0.0.1:3000';
const ingest = process.env.INGEST_URL ?? 'http://127.0.0.1:3001';

const app = express();
app.disable('x-powered-by');
app.use(createProxyMiddleware({ target: ingest, pathFilter: ['/e/**', '/t/**'], xfwd: true }));
app.use(createProxyMiddleware({ target: api, xfwd: true }));
const server = app.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));

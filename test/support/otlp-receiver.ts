import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpRequest {
  path: string;
  contentType: string;
  body: Buffer;
}

/** A local OTLP/HTTP receiver: records every POST and answers 200 with an empty JSON body. */
export class OtlpReceiver {
  readonly requests: OtlpRequest[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests.push({
          path: req.url ?? '',
          contentType: String(req.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks),
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  json(path: string): unknown[] {
    return this.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body.toString('utf8')));
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

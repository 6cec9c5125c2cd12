/**
 * A Node `ws` client as a `NetplayTransport`: messages sent before the connection opens wait for it, a
 * connection that fails or ends becomes one `onClose` call with a line naming the URL and why, and no `error`
 * event is ever left unhandled.
 */
import WebSocket from 'ws';
import { MAX_CATCHUP_LENGTH } from '../netplay/protocol.js';
import type { NetplayTransport } from '../netplay/transport.js';

/** Most messages queued before the connection opens (a session sends one `join`). */
const MAX_QUEUED = 64;

/** A NetplayTransport over a `ws` client connection to `url`. */
export function connectWsTransport(url: string): NetplayTransport {
  const ws = new WebSocket(url, { maxPayload: MAX_CATCHUP_LENGTH, perMessageDeflate: false });
  let onMessage: (text: string) => void = () => {};
  let onClose: (reason: string) => void = () => {};
  let closed: string | null = null;
  let error: string | null = null;
  const queued: string[] = [];
  const finish = (reason: string) => {
    if (closed !== null) return;
    closed = reason;
    queued.length = 0;
    onClose(reason);
  };
  let opened = false;
  ws.on('open', () => {
    opened = true;
    for (const t of queued) ws.send(t);
    queued.length = 0;
  });
  ws.on('message', (data, isBinary) => {
    if (closed !== null) return;
    if (isBinary) {
      finish(`the relay at ${url} sent a binary message`);
      ws.terminate();
      return;
    }
    onMessage(String(data));
  });
  ws.on('error', (e: Error & { code?: string }) => {
    error ??= e.code && !e.message.includes(e.code) ? `${e.code} ${e.message}` : e.message;
  });
  ws.on('unexpected-response', (_req, res) => {
    error ??= `the server answered HTTP ${res.statusCode}, not a WebSocket upgrade`;
    ws.terminate();
  });
  ws.on('close', (code, reason) => {
    const text = reason.length ? `: ${reason.toString('utf8')}` : error !== null ? `: ${error}` : '';
    finish(opened ? `the connection to the relay at ${url} ended (code ${code}${text})` : `cannot reach the relay at ${url}${text || ` (code ${code})`}`);
  });
  return {
    send(text) {
      if (closed !== null) return;
      if (ws.readyState === WebSocket.CONNECTING) {
        if (queued.length < MAX_QUEUED) queued.push(text);
      } else if (ws.readyState === WebSocket.OPEN) ws.send(text);
    },
    onMessage(cb) {
      onMessage = cb;
    },
    onClose(cb) {
      onClose = cb;
    },
    close() {
      if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.close(1000);
    },
  };
}

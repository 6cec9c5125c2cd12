/**
 * The browser's WebSocket as a NetplayTransport: what is sent before the socket opens waits for it (the
 * session sends `join` at once), an error or a close is one reason for the session.
 */
import type { NetplayTransport } from '../../netplay/transport.js';

export function webSocketTransport(url: string): NetplayTransport {
  const ws = new WebSocket(url);
  const waiting: string[] = [];
  let onClose: (reason: string) => void = () => {};
  let closed = false;
  const end = (reason: string) => {
    if (closed) return;
    closed = true;
    onClose(reason);
  };
  ws.addEventListener('open', () => {
    for (const t of waiting.splice(0)) ws.send(t);
  });
  ws.addEventListener('close', (e) => end(e.reason ? `${e.reason} (code ${e.code})` : `code ${e.code}`));
  ws.addEventListener('error', () => end(`cannot reach the relay at ${url}`));
  return {
    send(text) {
      if (closed) return;
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
      else if (ws.readyState === WebSocket.CONNECTING) waiting.push(text);
    },
    onMessage(cb) {
      ws.addEventListener('message', (e) => {
        if (typeof e.data === 'string') cb(e.data);
      });
    },
    onClose(cb) {
      onClose = cb;
    },
    close() {
      closed = true;
      ws.close(1000, 'left the room');
    },
  };
}
